import { appendFileSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test, type Page } from '@playwright/test';
import { E2E } from './env';

const VIEWPORTS = {
	phone: { width: 390, height: 844 },
	tablet: { width: 820, height: 1180 }
} as const;

const SHOTS = resolve(E2E.dir, 'shots');
mkdirSync(SHOTS, { recursive: true });

/** Axe at both sizes (serious and critical fail; the rest is noted), and a screenshot of each. */
export async function check(page: Page, name: string, problems: string[]) {
	for (const [size, viewport] of Object.entries(VIEWPORTS)) {
		await page.setViewportSize(viewport);
		const results = await new AxeBuilder({ page })
			.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
			.analyze();
		for (const v of results.violations) {
			const where = v.nodes
				.map((n) => n.target.join(' '))
				.slice(0, 3)
				.join(', ');
			const line = `${name} @${size}: [${v.impact}] ${v.id} — ${v.help} (${where})`;
			if (v.impact === 'serious' || v.impact === 'critical') problems.push(line);
			else {
				test.info().annotations.push({ type: 'axe (minor)', description: line });
				appendFileSync(resolve(E2E.dir, 'axe-minor.txt'), line + '\n');
			}
		}
		// Nothing may scroll sideways on a phone.
		const overflow = await page.evaluate(
			() => document.documentElement.scrollWidth - document.documentElement.clientWidth
		);
		if (overflow > 0) problems.push(`${name} @${size}: the page scrolls sideways by ${overflow}px`);
		await page.screenshot({ path: resolve(SHOTS, `${name}-${size}.png`), fullPage: true });
	}
}
