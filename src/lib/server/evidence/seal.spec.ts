import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { P12Signer } from '@signpdf/signer-p12';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '$lib/server/config/config';
import { inspectSeal } from './inspect';
import { SealSigner, sealPdf } from './seal';
import { generateSealP12, loadSealKey, readP12 } from './seal-key';
import type { P12 } from './p12';

const dir = mkdtempSync(join(tmpdir(), 'seal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function sample(text = 'Sealed sample'): Promise<PDFDocument> {
	const pdf = await PDFDocument.create();
	const font = await pdf.embedFont(StandardFonts.Helvetica);
	pdf.addPage().drawText(text, { x: 72, y: 700, size: 14, font });
	return pdf;
}

/** poppler's pdfsig: what any PDF reader would say about the file's signature. */
function pdfsig(bytes: Uint8Array): string {
	const file = join(dir, `check-${Math.random().toString(36).slice(2)}.pdf`);
	writeFileSync(file, bytes);
	const r = spawnSync('pdfsig', [file], { encoding: 'utf8' });
	return `${r.stdout}${r.stderr}`;
}

/** The file with one byte changed at `at` (a letter of the page text stays a letter). */
function flip(bytes: Uint8Array, at: number): Buffer {
	const copy = Buffer.from(bytes);
	copy[at] = copy[at] === 0x41 ? 0x42 : 0x41;
	return copy;
}

/** SealSigner's CMS for some bytes is P12Signer's, byte for byte (RSA PKCS#1 v1.5 is deterministic). */
async function expectSameAsP12Signer(key: P12) {
	const content = Buffer.from(await (await sample('Signed twice')).save());
	const at = new Date('2026-03-04T05:06:07Z');
	const ours = await new SealSigner(key).sign(content, at);
	const reference = await new P12Signer(key.p12, { passphrase: key.passphrase }).sign(content, at);
	expect(ours.length).toBeGreaterThan(1000);
	expect(ours.equals(reference)).toBe(true);
	// A different time is a different signature: the comparison can tell them apart.
	const later = await new SealSigner(key).sign(content, new Date(at.getTime() + 1000));
	expect(later.equals(reference)).toBe(false);
}

const opts = { reason: 'Test seal', location: 'http://localhost/verify', signingTime: new Date() };

describe('the seal', () => {
	const generated = loadSealKey(parseConfig({ DATA_DIR: dir }));

	it('generates a self-signed key into the data folder once, mode 0600', () => {
		const file = join(dir, 'seal.p12');
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(generated.source).toBe('generated');
		expect(generated.subject).toContain('Signing portal document seal');
		// A second start reads the same key.
		expect(loadSealKey(parseConfig({ DATA_DIR: dir })).certSha256).toBe(generated.certSha256);
	});

	it('signs so that pdfsig reports the signature valid, and invalid after one byte changes', async () => {
		const sealed = await sealPdf(await sample(), generated, opts);
		const report = pdfsig(sealed);
		expect(report).toContain('Signature Validation: Signature is Valid.');
		expect(report).toContain('adbe.pkcs7.detached');
		expect(report).toContain('Signing portal document seal');

		const tampered = flip(sealed, sealed.indexOf('/Producer') + 2);
		expect(pdfsig(tampered)).toMatch(/Signature Validation: Digest Mismatch/);
		expect(await inspectSeal(tampered)).toMatchObject({ kind: 'broken' });
	});

	it('inspects a genuine seal, and names what is wrong with the others', async () => {
		const sealed = await sealPdf(await sample(), generated, opts);
		const seal = await inspectSeal(sealed);
		expect(seal).toMatchObject({ kind: 'sealed', certSha256: generated.certSha256 });
		if (seal.kind === 'sealed') {
			expect(Math.abs(seal.signedAt!.getTime() - opts.signingTime.getTime())).toBeLessThan(1000);
		}
		expect(await inspectSeal(await (await sample()).save())).toEqual({ kind: 'unsealed' });
		expect(await inspectSeal(Buffer.from('hello, not a pdf'))).toEqual({ kind: 'not-pdf' });
		expect(await inspectSeal(Buffer.concat([sealed, Buffer.from('\n%%EOF\n')]))).toMatchObject({
			kind: 'broken',
			reason: 'bytes were added or removed after it was sealed'
		});
		// A changed byte inside the signature value, and in its zero padding.
		const contents = sealed.indexOf('/Contents <') + '/Contents <'.length;
		expect(await inspectSeal(flip(sealed, contents + 40))).toMatchObject({ kind: 'broken' });
		const end = sealed.indexOf('>', contents);
		expect(await inspectSeal(flip(sealed, end - 3))).toMatchObject({ kind: 'broken' });
	});

	it('reads an operator’s PKCS#12 made by openssl, and refuses a wrong passphrase', async () => {
		const key = join(dir, 'op.key');
		const crt = join(dir, 'op.crt');
		const p12 = join(dir, 'op.p12');
		execFileSync(
			'openssl',
			[
				'req',
				'-x509',
				'-newkey',
				'rsa:2048',
				'-nodes',
				'-keyout',
				key,
				'-out',
				crt,
				'-days',
				'30',
				'-subj',
				'/CN=Operator Seal Test/O=Example Processing Inc'
			],
			{ stdio: 'ignore' }
		);
		execFileSync(
			'openssl',
			['pkcs12', '-export', '-inkey', key, '-in', crt, '-out', p12, '-passout', 'pass:s3cret'],
			{ stdio: 'ignore' }
		);
		const operator = loadSealKey(
			parseConfig({ DATA_DIR: dir, SEAL_P12_FILE: p12, SEAL_P12_PASSPHRASE: 's3cret' })
		);
		expect(operator).toMatchObject({ source: 'operator' });
		expect(operator.subject).toContain('Operator Seal Test');
		const sealed = await sealPdf(await sample(), operator, opts);
		expect(pdfsig(sealed)).toContain('Signature Validation: Signature is Valid.');
		await expectSameAsP12Signer(operator);
		expect(await inspectSeal(sealed)).toMatchObject({ certSha256: operator.certSha256 });
		expect(operator.certSha256).not.toBe(generated.certSha256);

		expect(() =>
			loadSealKey(parseConfig({ DATA_DIR: dir, SEAL_P12_FILE: p12, SEAL_P12_PASSPHRASE: 'nope' }))
		).toThrow(ConfigError);
		expect(() => loadSealKey(parseConfig({ SEAL_P12_FILE: join(dir, 'missing.p12') }))).toThrow(
			/does not exist/
		);
	});

	it('signs with OpenSSL the very bytes @signpdf’s P12Signer makes with forge', async () => {
		await expectSameAsP12Signer(generated);
	});

	it('builds a bundle node-forge reads back with its certificate', () => {
		const bundle = readP12(generateSealP12(), '');
		expect(bundle.certPem).toMatch(/^-----BEGIN CERTIFICATE-----/);
		expect(bundle.certSha256).toMatch(/^[0-9a-f]{64}$/);
		expect(readFileSync(join(dir, 'seal.p12')).length).toBeGreaterThan(1000);
	});
});
