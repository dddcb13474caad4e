import { existsSync } from 'node:fs';
import { chromium, defineConfig, devices } from '@playwright/test';
import { E2E } from './tests/support/env';

/** Playwright's own Chromium when it is installed, else the system's (Debian: apt-get install chromium). */
function chromiumPath(): string | undefined {
	if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
	try {
		if (existsSync(chromium.executablePath())) return undefined;
	} catch {
		/* no bundled browser */
	}
	for (const p of ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']) {
		if (existsSync(p)) return p;
	}
	return undefined;
}

export default defineConfig({
	testDir: 'tests',
	testMatch: '**/*.e2e.ts',
	fullyParallel: false,
	workers: 1,
	retries: 0,
	timeout: 60_000,
	expect: { timeout: 10_000 },
	reporter: process.env.CI ? [['list']] : [['list']],
	use: {
		baseURL: E2E.origin,
		...devices['Desktop Chrome'],
		launchOptions: {
			executablePath: chromiumPath(),
			args: [
				'--no-sandbox',
				'--disable-gpu',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
				'--no-first-run',
				'--disable-quic'
			]
		},
		trace: 'off'
	},
	webServer: {
		command: 'node tests/support/server.js',
		url: `${E2E.origin}/healthz`,
		reuseExistingServer: false,
		timeout: 60_000,
		stdout: 'ignore',
		stderr: 'pipe'
	}
});
