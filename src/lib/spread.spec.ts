import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile } from 'svelte/compiler';
import { describe, expect, it } from 'vitest';

/**
 * Svelte's client calls that a spread on an element (`<details {...attrs}>`) brings in: on a
 * merchant page, 2.3 KB compressed of attribute runtime in every cold load, about the whole margin
 * under the terms page's 45 KB budget (tests/bench/NOTES.md, section 17). Rep pages are checked
 * too: Svelte's runtime is split into chunks by what pages share, not by who uses them.
 */
const SPREAD_RUNTIME = /\$\.(attribute_effect|set_attributes)\(/;

const clientCode = (source: string, filename: string) =>
	compile(source, { filename, generate: 'client' }).js.code;

const svelteFiles = (readdirSync('src', { recursive: true }) as string[])
	.filter((f) => f.endsWith('.svelte'))
	.map((f) => join('src', f));

describe('what every page weighs', () => {
	it('no element spreads its attributes', () => {
		expect(svelteFiles.length).toBeGreaterThan(20);
		const spreading = svelteFiles.filter((f) =>
			SPREAD_RUNTIME.test(clientCode(readFileSync(f, 'utf8'), f))
		);
		expect(spreading).toEqual([]);
	});

	it('the check finds a spread, and not a plain attribute', () => {
		const opened = '<script>let o = $state({ open: true });</script>';
		expect(clientCode(`${opened}<details {...o}></details>`, 'a.svelte')).toMatch(SPREAD_RUNTIME);
		expect(clientCode(`${opened}<details open={o.open}></details>`, 'b.svelte')).not.toMatch(
			SPREAD_RUNTIME
		);
	});
});
