import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { generateSealP12, readP12 } from '../src/lib/server/evidence/p12';
import { sealPdf } from '../src/lib/server/evidence/seal';
import { check } from './support/a11y';
import { E2E } from './support/env';
import {
	TEXT,
	agreeToTerms,
	createLink,
	fillSignForm,
	freshSsn,
	newApplication,
	noScriptContext,
	openLinkAndStart,
	passIdentity,
	resetSandbox,
	waitForDecision
} from './support/flow';

const PDFS = resolve(E2E.dir, 'pdfs');
mkdirSync(PDFS, { recursive: true });

/** poppler's pdfsig on the bytes: what a PDF reader would say about the seal. */
function pdfsig(name: string, bytes: Buffer): string {
	const file = resolve(PDFS, name);
	writeFileSync(file, bytes);
	const r = spawnSync('pdfsig', [file], { encoding: 'utf8' });
	return `${r.stdout}${r.stderr}`;
}

async function upload(page: Page, name: string, buffer: Buffer) {
	await page
		.getByLabel(/Certificate of completion or signed copy/)
		.setInputFiles({ name, mimeType: 'application/pdf', buffer });
	await page.getByRole('button', { name: 'Check the document' }).click();
}

test.beforeEach(async ({ request }) => {
	await resetSandbox(request);
});

test('the typed signature must match the name; the signer gets a sealed signed copy and certificate that /verify recognizes', async ({
	page,
	request
}) => {
	test.setTimeout(120_000);
	const problems: string[] = [];
	const app = await newApplication(request, 'Evidence');
	const { path } = await createLink(request, app.id);
	await openLinkAndStart(page, path);
	await agreeToTerms(page);
	await passIdentity(page, app.id);

	// A signature that is not the name given is refused beside the field, and kept: in the same
	// round as a mistyped SSN, not only once the rest is right.
	await fillSignForm(page, { ssn: '000-12-3456', signature: 'Morgan Smith' });
	await page.getByRole('button', { name: 'Accept and sign' }).click();
	const field = page.getByLabel('Type your full name to sign');
	await expect(
		page.getByText('Type your first and last name as given above (Morgan Testwell) to sign.')
	).toBeVisible();
	await expect(
		page.getByText('That isn’t a valid Social Security Number. Check the digits.')
	).toBeVisible();
	await expect(field).toHaveAttribute('aria-invalid', 'true');
	await expect(field).toHaveValue('Morgan Smith');

	// Case, spacing and accents aside, the name signs.
	await fillSignForm(page, { ssn: freshSsn(), signature: '  morgan   TESTWÉLL ' });
	await page.getByRole('button', { name: 'Accept and sign' }).click();
	await expect(page.getByRole('heading', { level: 1, name: TEXT.signedTitle })).toBeVisible();
	await waitForDecision(request, app.id);

	const copy = await page.request.get('/sign/done/signed-copy.pdf');
	expect(copy.status()).toBe(200);
	const cert = await page.request.get('/sign/done/certificate.pdf');
	expect(cert.status()).toBe(200);
	const copyBytes = await copy.body();
	const certBytes = await cert.body();
	expect(pdfsig(`signed-${app.id}.pdf`, copyBytes)).toContain('Signature is Valid.');
	expect(pdfsig(`certificate-${app.id}.pdf`, certBytes)).toContain('Signature is Valid.');
	const reference = /\/verify\/([0-9a-f-]{36})/.exec(certBytes.toString('latin1'))?.[1];
	expect(reference).toMatch(/^[0-9a-f-]{36}$/);

	// /verify: genuine, tampered, foreign, unsealed and garbage, each in plain words.
	await page.goto('/verify');
	await check(page, 'verify', problems);
	await upload(page, 'certificate.pdf', certBytes);
	await expect(page.getByRole('heading', { name: 'Genuine and intact' })).toBeVisible();
	await expect(
		page.getByText('This is a certificate of completion sealed by this portal')
	).toBeVisible();
	await expect(page.getByText(`application ${app.id} of office 1207`)).toBeVisible();
	await expect(
		page.getByText('Our records still give exactly the facts printed on it.')
	).toBeVisible();
	// No personal data on the answer.
	const answer = await page.locator('main').innerText();
	for (const personal of [app.first, app.last, app.email, app.business, '127.0.0.1']) {
		expect(answer).not.toContain(personal);
	}
	await check(page, 'verify-genuine', problems);

	await upload(page, 'signed-copy.pdf', copyBytes);
	await expect(page.getByRole('heading', { name: 'Genuine and intact' })).toBeVisible();
	await expect(page.getByText('This is a signed copy sealed by this portal')).toBeVisible();

	const tampered = Buffer.from(copyBytes);
	const at = tampered.indexOf('/Producer') + 3;
	tampered[at] = tampered[at] === 0x41 ? 0x42 : 0x41;
	expect(pdfsig('tampered.pdf', tampered)).not.toContain('Signature is Valid.');
	await upload(page, 'tampered.pdf', tampered);
	await expect(page.getByRole('heading', { name: 'Changed after it was sealed' })).toBeVisible();
	await check(page, 'verify-tampered', problems);

	const stranger = readP12(generateSealP12(new Date(), 'Someone Else', 'Another Company'), '');
	const foreign = await sealPdf(await PDFDocument.load(certBytes), stranger, {
		reason: 'Not ours',
		location: 'elsewhere',
		signingTime: new Date()
	});
	await upload(page, 'foreign.pdf', foreign);
	await expect(page.getByRole('heading', { name: 'Not sealed by this portal' })).toBeVisible();
	await expect(page.getByText(/by “Someone Else, Another Company”/)).toBeVisible();

	await upload(page, 'unsealed.pdf', Buffer.from(await (await PDFDocument.create()).save()));
	await expect(page.getByRole('heading', { name: 'Not sealed', exact: true })).toBeVisible();
	// The service's own application PDF, as the console serves it, is named for what it is.
	await expect(page.getByText(/its sealed form is the signed copy\.$/)).toBeVisible();

	await upload(page, 'garbage.pdf', Buffer.from('this is not a pdf at all'));
	await expect(page.getByRole('heading', { name: 'This is not a PDF' })).toBeVisible();

	// The QR code's page: the record, by reference, and the same upload.
	await page.goto(`/verify/${reference}`);
	await expect(
		page.getByRole('heading', { name: 'Signed, on record, and the trail verifies' })
	).toBeVisible();
	await expect(page.getByText(/of office 1207, accepted and signed /)).toBeVisible();
	await check(page, 'verify-reference', problems);
	await upload(page, 'certificate.pdf', certBytes);
	await expect(page.getByRole('heading', { name: 'Genuine and intact' })).toBeVisible();
	// A reference with no signing: the same page and its upload form, answered as not found.
	const unknown = await page.goto('/verify/00000000-0000-4000-8000-000000000000');
	expect(unknown?.status()).toBe(404);
	await expect(page.getByRole('heading', { name: 'No such signing on record' })).toBeVisible();
	await upload(page, 'certificate.pdf', certBytes);
	await expect(page.getByRole('heading', { name: 'Genuine and intact' })).toBeVisible();
	// Typed from paper, with no QR scanner: capitals and spaces around it are forgiven.
	await page.goto('/verify');
	await page
		.getByLabel('Or check by the decision reference printed on the document')
		.fill(`  ${reference!.toUpperCase()} `);
	await page.getByRole('button', { name: 'Check the reference' }).click();
	await expect(page).toHaveURL(new RegExp(`/verify/${reference}$`));
	await expect(
		page.getByRole('heading', { name: 'Signed, on record, and the trail verifies' })
	).toBeVisible();
	expect(problems).toEqual([]);
});

test('/verify works with JavaScript off and names a missing file', async ({ browser, request }) => {
	const app = await newApplication(request, 'Verify nojs');
	const context = await noScriptContext(browser);
	const page = await context.newPage();
	try {
		const { path } = await createLink(request, app.id);
		await openLinkAndStart(page, path);
		await agreeToTerms(page);
		await passIdentity(page, app.id);
		await fillSignForm(page, { ssn: freshSsn() });
		await page.getByRole('button', { name: 'Accept and sign' }).click();
		await expect(page.getByRole('heading', { level: 1, name: TEXT.signedTitle })).toBeVisible();
		const cert = await (await page.request.get('/sign/done/certificate.pdf')).body();

		// A reference mistyped is refused in words, as typed; one in the right form leads to its page.
		const mistyped = await page.goto('/verify?reference=c7e618ff-565a');
		expect(mistyped?.status()).toBe(400);
		const field = page.getByLabel('Or check by the decision reference printed on the document');
		await expect(field).toHaveValue('c7e618ff-565a');
		await expect(page.getByRole('alert')).toContainText(
			'A reference is the 36 letters, digits and dashes printed after “Decision reference”'
		);
		await field.fill('00000000-0000-4000-8000-000000000000');
		await page.getByRole('button', { name: 'Check the reference' }).click();
		await expect(page).toHaveURL(/\/verify\/00000000-0000-4000-8000-000000000000$/);
		await expect(page.getByRole('heading', { name: 'No such signing on record' })).toBeVisible();

		await page.goto('/verify');
		await page
			.locator('form[enctype="multipart/form-data"]')
			.evaluate((f) => f.setAttribute('novalidate', ''));
		await page.getByRole('button', { name: 'Check the document' }).click();
		await expect(page.getByText('Choose the PDF file to check.')).toBeVisible();
		await upload(page, 'certificate.pdf', cert);
		await expect(page.getByRole('heading', { name: 'Genuine and intact' })).toBeVisible();
		// A file that is no PDF at all is refused as bad input, with its verdict.
		const notPdf = page.waitForResponse((r) => r.request().method() === 'POST');
		await upload(page, 'notes.pdf', Buffer.from('this is not a pdf at all'));
		expect((await notPdf).status()).toBe(400);
		await expect(page.getByRole('heading', { name: 'This is not a PDF' })).toBeVisible();
	} finally {
		await context.close();
	}
});

test('/verify’s reference takes no SSN, and never takes a reference for one', async ({ page }) => {
	const field = page.getByLabel('Or check by the decision reference printed on the document');
	// An SSN typed there is neither kept in the address (nor the history) nor shown back.
	await page.goto('/verify?reference=372-51-8806');
	await expect(page).toHaveURL(/\/verify\?refused=ssn$/);
	await expect(page.getByRole('alert')).toContainText('looked like a Social Security Number');
	await expect(field).toHaveValue('');
	expect(await page.content()).not.toMatch(/8806/);
	await page.goto('/verify/372518806');
	await expect(page).toHaveURL(/\/verify\?refused=ssn$/);
	// Typed into the box, it is posted: in no address the browser asks for either.
	const asked: string[] = [];
	page.on('request', (r) => asked.push(r.url()));
	await field.fill('372 51 8806');
	await page.getByRole('button', { name: 'Check the reference' }).click();
	await expect(page).toHaveURL(/\/verify\?refused=ssn$/);
	await expect(page.getByRole('alert')).toContainText('looked like a Social Security Number');
	expect(asked.some((u) => u.endsWith('/verify?/lookup'))).toBe(true);
	expect(asked.filter((u) => /8806/.test(u))).toEqual([]);
	// Nor one a superscript digit stands beside, nor nine digits a cut to what the page shows
	// would leave of a longer number.
	await page.goto(`/verify?reference=${encodeURIComponent('¹372518806')}`);
	await expect(page).toHaveURL(/\/verify\?refused=ssn$/);
	const long = `${'a'.repeat(90)} 3725188061`;
	const refused = await page.goto(`/verify?reference=${encodeURIComponent(long)}`);
	expect(refused?.status()).toBe(400);
	expect(await page.content()).not.toMatch(/372518806/);
	await expect(field).toHaveValue(`${'a'.repeat(90)} `);
	await page.goto(`/verify/${'a'.repeat(54)}-3725188061`);
	await expect(page).toHaveURL(/\/verify\?refused=ssn$/);
	// A reference whose hex runs nine digits in a row is a reference, not an SSN.
	const nines = '00000000-0000-4000-8000-123456789abc';
	await page.goto(`/verify?reference=${nines}`);
	await expect(page).toHaveURL(new RegExp(`/verify/${nines}$`));
	await expect(page.getByRole('heading', { name: 'No such signing on record' })).toBeVisible();
});

test('/verify says how large a file it takes, and refuses a larger one in words, with and without JavaScript', async ({
	page,
	browser
}) => {
	// On the default BODY_SIZE_LIMIT (512K), which leaves 500 KB for the file.
	const large = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(1024 * 1024, 0x20)]);
	const TOO_LARGE =
		'That file is larger than 500 KB, the most this portal takes, so it can’t be checked here.';

	await page.goto('/verify');
	await expect(
		page.getByLabel('Certificate of completion or signed copy (PDF, up to 500 KB)')
	).toBeVisible();
	const posts: string[] = [];
	page.on('request', (r) => {
		if (r.method() === 'POST') posts.push(r.url());
	});
	await upload(page, 'large.pdf', large);
	await expect(page.getByRole('alert')).toContainText(TOO_LARGE);
	expect(posts, 'nothing was sent').toEqual([]);

	const context = await noScriptContext(browser);
	try {
		const noJs = await context.newPage();
		await noJs.goto('/verify');
		await upload(noJs, 'large.pdf', large);
		await expect(noJs.getByRole('heading', { name: 'This could not be accepted' })).toBeVisible();
		await expect(
			noJs.getByText('What was sent is larger than this portal takes.', { exact: false })
		).toBeVisible();
		await expect(noJs.getByText(/arrived damaged/)).toHaveCount(0);
		await expect(
			noJs.getByText(
				/A file larger than 500 KB can’t be checked here, but the decision reference printed on it can: use your browser’s Back button/
			)
		).toBeVisible();
	} finally {
		await context.close();
	}
});
