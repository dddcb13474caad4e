// Runs last (files run in name order with one worker): after every other test has typed SSNs,
// none of them may be found in the portal's data folder or in anything the server printed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E } from './support/env';
import {
	agreeToTerms,
	carriesSsn,
	createLink,
	digitsOf,
	fillSignForm,
	newApplication,
	openLinkAndStart,
	passIdentity,
	resetSandbox,
	sha256,
	TEXT,
	typedSsns,
	typedValues,
	waitForDecision
} from './support/flow';

const SSN = '287-65-4321';

function filesUnder(dir: string): string[] {
	const out: string[] = [];
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const p = join(dir, entry.name);
		if (entry.isDirectory()) out.push(...filesUnder(p));
		else if (entry.isFile()) out.push(p);
	}
	return out;
}

/**
 * The forms an SSN could be written in: digits, dashed, spaced, and an unkeyed SHA-256 of the
 * digits (undone in a tenth of a second: as good as the digits); as UTF-8 and as UTF-16.
 */
function needles(ssn: string): Buffer[] {
	const d = digitsOf(ssn);
	const forms = [
		d,
		`${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5)}`,
		`${d.slice(0, 3)} ${d.slice(3, 5)} ${d.slice(5)}`,
		sha256(d)
	];
	return forms.flatMap((f) => [Buffer.from(f, 'utf8'), Buffer.from(f, 'utf16le')]);
}

test('no SSN typed during the run is stored or logged in clear', async ({ page, request }) => {
	await resetSandbox(request);
	const app = await newApplication(request, 'Leak');
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);
	await agreeToTerms(page);
	await passIdentity(page, app.id);
	await fillSignForm(page, { ssn: SSN });
	await page.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(page.getByRole('heading', { level: 1, name: TEXT.signedTitle })).toBeVisible();
	const d = await waitForDecision(request, app.id);
	expect(carriesSsn(d, SSN)).toBe(true);
	expect(carriesSsn(d, '219-09-9999')).toBe(false);
	// The certificate, the signed copy and the done page are generated too (none may print it).
	for (const pdf of ['/sign/done/certificate.pdf', '/sign/done/signed-copy.pdf']) {
		const res = await page.request.get(pdf);
		expect(res.status(), pdf).toBe(200);
		expect((await res.body()).includes(digitsOf(SSN)), pdf).toBe(false);
	}
	expect(await page.content()).not.toContain(digitsOf(SSN));
	// Let the database write what it buffers.
	await page.waitForTimeout(1_500);

	const ssns = [...new Set([SSN, ...typedSsns()].map(digitsOf))].filter((s) => s.length === 9);
	const files = [...filesUnder(E2E.dataDir), E2E.log];
	expect(files.length).toBeGreaterThan(1);
	const hits: string[] = [];
	let bytes = 0;
	for (const file of files) {
		if (!statSync(file).isFile()) continue;
		const content = readFileSync(file);
		bytes += content.length;
		for (const ssn of ssns) {
			for (const needle of needles(ssn)) {
				if (content.includes(needle))
					hits.push(`${relative(E2E.dir, file)}: ${ssn.slice(0, 3)}…${ssn.slice(-2)}`);
			}
		}
	}
	test.info().annotations.push({
		type: 'searched',
		description: `${files.length} files, ${bytes} bytes, ${ssns.length} SSNs`
	});
	expect(hits).toEqual([]);
});

test('nothing else typed during the run (names, emails, reasons, identity answers) is in the server log', () => {
	const typed = typedValues();
	// Every test file that types personal data remembers it (flow.ts, http.ts, the property tests).
	expect(typed.length).toBeGreaterThan(10);
	const log = readFileSync(E2E.log, 'utf8');
	expect(log.length).toBeGreaterThan(0);
	const lines = log.split('\n');
	const found = typed.filter((value) => lines.some((line) => line.includes(value)));
	test.info().annotations.push({
		type: 'searched',
		description: `${lines.length} log lines for ${typed.length} typed values`
	});
	expect(found).toEqual([]);
});

test('the data folder is private: folders 0700, files 0600', () => {
	const loose: string[] = [];
	const walk = (dir: string) => {
		if ((statSync(dir).mode & 0o777) !== 0o700) loose.push(relative(E2E.dir, dir));
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			const p = join(dir, entry.name);
			if (entry.isDirectory()) walk(p);
			else if (entry.isFile() && (statSync(p).mode & 0o777) !== 0o600)
				loose.push(relative(E2E.dir, p));
		}
	};
	walk(E2E.dataDir);
	expect(filesUnder(E2E.dataDir).length).toBeGreaterThan(100);
	expect(loose).toEqual([]);
});
