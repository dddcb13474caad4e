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

/**
 * A small phone with its text at twice the size: the stylesheets size all text in rem, so a root
 * font size of 200% is what a browser's text size setting does.
 */
const LARGE_TEXT = { width: 320, height: 640 };

/** Nothing may scroll sideways on a phone. */
async function sideways(page: Page, where: string, problems: string[]) {
	const overflow = await page.evaluate(
		() => document.documentElement.scrollWidth - document.documentElement.clientWidth
	);
	if (overflow > 0) problems.push(`${where}: the page scrolls sideways by ${overflow}px`);
}

/**
 * Axe at both sizes (serious and critical fail; the rest is noted), and a screenshot of each. At
 * both, and on a small phone with large text, nothing may scroll sideways.
 */
export async function check(page: Page, name: string, problems: string[]) {
	await page.setViewportSize(LARGE_TEXT);
	// Set through the CSSOM, which the CSP allows (a style tag it refuses).
	await page.evaluate(() => (document.documentElement.style.fontSize = '200%'));
	await sideways(page, `${name} @320px with 200% text`, problems);
	await page.evaluate(() => document.documentElement.style.removeProperty('font-size'));
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
		await sideways(page, `${name} @${size}`, problems);
		await page.screenshot({ path: resolve(SHOTS, `${name}-${size}.png`), fullPage: true });
	}
}
