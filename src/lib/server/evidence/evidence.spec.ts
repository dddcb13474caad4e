import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import jsQR from 'jsqr';
import {
	PDFArray,
	PDFDict,
	PDFDocument,
	PDFName,
	PDFRef,
	PDFStream,
	type PDFObject
} from 'pdf-lib';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendAudit, listAudit } from '$lib/server/audit/audit';
import { recordDecision } from '$lib/server/decisions/decisions';
import { deliverDecision } from '$lib/server/decisions/delivery';
import { auditEvents, signingSessions } from '$lib/server/db/schema';
import { identityState, startAttempt, submitAnswers } from '$lib/server/identity/attempts';
import { BY_OPERATOR_API, BY_SANDBOX_DEMO, createLink } from '$lib/server/links/links';
import { noSections } from '$lib/server/signing/sections';
import { createSession, type SigningSession } from '$lib/server/signing/session';
import { CONSENT_SHA256, showTerms } from '$lib/server/signing/terms';
import { sessionEvent } from '$lib/server/signing/event';
import { exampleCreateRequest } from '$lib/server/onboarding/fixtures';
import { ACCEPTANCE_SECTIONS } from '$lib/server/onboarding/schemas';
import { startTestApp } from '$lib/server/testing/app';
import {
	applicationPdfForDecision,
	certificatePdf,
	offerApplicationPdf,
	registerSealCertificate,
	signedCopyPdf,
	verifyDocument,
	verifyReference
} from '.';
import { readStamp } from './documents';
import { documentVerdict } from './verdict';
import { sealPdf } from './seal';
import { generateSealP12, readP12 } from './seal-key';

const SSN = '372518806';
const IPHONE =
	'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const meta = { ip: '203.0.113.45', userAgent: IPHONE };
const ORIGIN = 'https://sign.example.com';
const dir = mkdtempSync(join(tmpdir(), 'evidence-'));

function write(name: string, bytes: Uint8Array): string {
	const file = join(dir, name);
	writeFileSync(file, bytes);
	return file;
}

function run(cmd: string, args: string[]): string {
	const r = spawnSync(cmd, args, { encoding: 'utf8' });
	return `${r.stdout}${r.stderr}`;
}

/** pdftotext, page by page: in reading layout, or `raw` in the order it was drawn (by column). */
function pages(file: string, mode: 'layout' | 'raw' = 'layout'): string[] {
	return run('pdftotext', [`-${mode}`, file, '-'])
		.split('\f')
		.slice(0, -1);
}

/**
 * What is printed under the footer's rule (40 pt above the page's foot) on each page from
 * `first` (1-based): the footer's words alone, unless a part ran past the foot of its page.
 */
function underFooter(file: string, first: number): string[] {
	const bbox = run('pdftotext', ['-bbox', '-f', String(first), file, '-']);
	return bbox
		.split('<page ')
		.slice(1)
		.map((page) => {
			const height = Number(/height="([\d.]+)"/.exec(page)?.[1]);
			return [...page.matchAll(/yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</g)]
				.filter((m) => Number(m[2]) > height - 40)
				.map((m) => m[3])
				.join(' ');
		});
}

/**
 * The objects of a PDF that nothing leads to from its trailer (the catalog, the document's info):
 * written into the file but no part of the document. The parser's own cross-reference and object
 * streams aside, and the standard fonts a sheet embeds whether or not a page uses them.
 */
function unreachable(pdf: PDFDocument): string[] {
	const seen = new Set<string>();
	const visit = (o: PDFObject | undefined): void => {
		if (o instanceof PDFRef) {
			if (seen.has(String(o))) return;
			seen.add(String(o));
			visit(pdf.context.lookup(o));
		} else if (o instanceof PDFDict) {
			for (const [, value] of o.entries()) visit(value);
		} else if (o instanceof PDFArray) {
			for (const value of o.asArray()) visit(value);
		} else if (o instanceof PDFStream) {
			visit(o.dict);
		}
	};
	visit(pdf.context.trailerInfo.Root);
	visit(pdf.context.trailerInfo.Info);
	const skip = ['XRef', 'ObjStm', 'Font'].map((t) => PDFName.of(t));
	return pdf.context
		.enumerateIndirectObjects()
		.filter(([ref, o]) => {
			if (seen.has(String(ref))) return false;
			const dict = o instanceof PDFStream ? o.dict : o instanceof PDFDict ? o : undefined;
			const type = dict?.get(PDFName.of('Type'));
			return !skip.some((t) => t === type);
		})
		.map(([ref, o]) => `${String(ref)} ${o.constructor.name}`);
}

/** The QR code on page 1, rendered by pdftoppm and read back with jsQR. */
function qrOnPage1(file: string): string | null {
	const prefix = join(dir, `qr-${Math.random().toString(36).slice(2)}`);
	run('pdftoppm', ['-png', '-r', '150', '-f', '1', '-l', '1', file, prefix]);
	const png = readdirSync(dir).find((f) => join(dir, f).startsWith(prefix))!;
	const image = PNG.sync.read(readFileSync(join(dir, png)));
	return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null;
}

const sha256 = (b: string | Uint8Array) => createHash('sha256').update(b).digest('hex');

/** The files attached to a PDF, by name, as pdfdetach saves them. */
function detach(file: string): Record<string, Buffer> {
	const out = mkdtempSync(join(dir, 'detach-'));
	run('pdfdetach', ['-saveall', '-o', out, file]);
	return Object.fromEntries(
		readdirSync(out)
			.sort()
			.map((name) => [name, readFileSync(join(out, name))])
	);
}

/** Digits that could be a full SSN, once hashes and ids are taken out. */
function ssnShaped(text: string): string[] {
	const prose = text
		.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '')
		// Hashes (64) and question-set ids (16) are random hex, nine digits in a row now and then.
		.replace(/[0-9a-f]{16,}/g, '');
	return [...prose.matchAll(/(?<!\d)\d{3}-?\d{2}-?\d{4}(?!\d)/g)].map((m) => m[0]);
}

describe('certificate of completion and signed copy', () => {
	let t: Awaited<ReturnType<typeof startTestApp>>;
	beforeAll(async () => {
		t = await startTestApp({ OFFICE_TIME_ZONE: 'America/Chicago' });
		await registerSealCertificate(t.ctx.db, await t.ctx.seal());
	});
	afterAll(async () => {
		await t.close();
		// KEEP_EVIDENCE=1 keeps the PDFs made here, to be looked at (its path is in `dir`).
		if (!process.env.KEEP_EVIDENCE) rmSync(dir, { recursive: true, force: true });
	});

	async function reload(s: SigningSession): Promise<SigningSession> {
		const [row] = await t.ctx.db.select().from(signingSessions).where(eq(signingSessions.id, s.id));
		return row!;
	}

	async function consent(s: SigningSession) {
		const now = new Date();
		await t.ctx.db
			.update(signingSessions)
			.set({ consentAt: now })
			.where(eq(signingSessions.id, s.id));
		await appendAudit(t.ctx.db, {
			...sessionEvent(s, meta),
			type: 'consent.given',
			at: now,
			data: { consentSha256: CONSENT_SHA256, termsVersion: s.termsVersion }
		});
	}

	async function passIdentity(s: SigningSession, failFirst = false) {
		if (failFirst) {
			expect((await startAttempt(t.ctx, s, meta)).result).toBe('started');
			const { open } = await identityState(t.ctx, s, meta);
			const wrong = open!.questions.Questions.map((q) => ({
				QuestionID: q.QuestionID,
				ChoiceID: q.Choices[0]!.ChoiceID
			}));
			const right = await t.control('GET', `answers/${open!.questions.QuestionSetID}`);
			const bad = wrong.map((w, i) =>
				String(w.ChoiceID) === String(right.body.Answers[i].ChoiceID)
					? { ...w, ChoiceID: open!.questions.Questions[i]!.Choices[1]!.ChoiceID }
					: w
			);
			expect((await submitAnswers(t.ctx, s, open!, bad, meta)).result).toBe('failed');
		}
		expect((await startAttempt(t.ctx, s, meta)).result).toBe('started');
		const { open } = await identityState(t.ctx, s, meta);
		const right = await t.control('GET', `answers/${open!.questions.QuestionSetID}`);
		expect((await submitAnswers(t.ctx, s, open!, right.body.Answers, meta)).result).toBe('passed');
	}

	const accepted = () => {
		const flags = noSections();
		Object.assign(flags, {
			TermsAndConditions: true,
			PaymentReceipt: true,
			IndividualGuaranty: true,
			NextDayFunding: true
		});
		return flags;
	};

	/** A fresh application in the sandbox, with the owner the signing uses. */
	async function newApplication(): Promise<number> {
		const req = exampleCreateRequest();
		Object.assign(req.OwnerOfficer, {
			Ownr1_Legal_Name_First: 'Dana',
			Ownr1_Legal_Name_Last: 'Whitfield'
		});
		const created = await t.ctx.onboarding.createApplication(1207, req);
		return Number(created.ApplicationID);
	}

	const REP = {
		repId: 'c0ffee00-0000-4000-8000-000000000031',
		repNo: 31,
		repName: 'Jordan Alvarez',
		photoIdChecked: true,
		idType: 'Driver’s license',
		idLast4: 'K7Q2'
	};

	/**
	 * A typical signing as the routes leave it, delivered: by emailed link, or in person on the
	 * rep's device (the trail built directly, in the shape facts.ts documents).
	 */
	async function linkSigning(
		opts: {
			failFirst?: boolean;
			inPerson?: boolean;
			/** In person: the tablet handed over again mid-way, after another photo-ID check. */
			handedOverAgain?: typeof REP;
			declined?: boolean;
			/** The names and signature the signer typed, if not Dana Whitfield's. */
			signer?: { firstName: string; lastName: string; signature: string };
			/** A link the portal did not email, made by this (links.ts's createdBy). */
			notEmailedBy?: string;
		} = {}
	) {
		const applicationId = await newApplication();
		let linkId: string | null = null;
		if (!opts.inPerson) {
			const { link } = await createLink(t.ctx.db, {
				officeId: 1207,
				applicationId,
				email: opts.notEmailedBy ? null : 'dana@blueheronbakery.example',
				createdBy: opts.notEmailedBy ?? 'operator',
				ttlHours: 168,
				meta: { ip: '198.51.100.2', userAgent: 'operator-system/1.0' }
			});
			linkId = link.id;
			if (!opts.notEmailedBy) {
				await appendAudit(t.ctx.db, {
					officeId: 1207,
					applicationId,
					type: 'link.sent',
					channel: 'link',
					data: { to: 'dana@blueheronbakery.example' }
				});
			}
		}
		let s = (
			await createSession(t.ctx.db, {
				channel: opts.inPerson ? 'in_person' : 'link',
				linkId,
				repId: opts.inPerson ? REP.repId : null,
				officeId: 1207,
				applicationId,
				businessName: 'Blue Heron Bakery',
				ownerFirstName: 'Dana',
				ownerLastName: 'Whitfield',
				ownerEmail: 'dana@blueheronbakery.example',
				...meta
			})
		).session;
		if (linkId) {
			await appendAudit(t.ctx.db, {
				...sessionEvent(s, meta),
				type: 'link.opened',
				data: { linkId }
			});
		}
		await appendAudit(t.ctx.db, {
			...sessionEvent(s, meta),
			type: 'session.started',
			data: opts.inPerson ? { inPerson: REP } : { linkId }
		});
		await showTerms(t.ctx, s, meta);
		s = await reload(s);
		if (opts.handedOverAgain) {
			await appendAudit(t.ctx.db, {
				...sessionEvent(s, meta),
				type: 'session.handed_over',
				data: { inPerson: opts.handedOverAgain }
			});
		}
		await consent(s);
		await passIdentity(s, opts.failFirst);
		s = await reload(s);
		const applicationPdf = await applicationPdfForDecision(t.ctx, s);
		const d = await recordDecision(
			t.ctx.db,
			t.ctx.encryptionKey,
			s,
			{
				isAccepted: !opts.declined,
				flags: opts.declined ? noSections() : accepted(),
				firstName: opts.signer?.firstName ?? 'Dana',
				lastName: opts.signer?.lastName ?? 'Whitfield',
				email: 'dana@blueheronbakery.example',
				notificationEmail: 'notices@blueheronbakery.example',
				ssn: SSN,
				declineReason: opts.declined ? 'The fees are too high' : null,
				signature: opts.declined ? null : (opts.signer?.signature ?? 'Dana Whitfield'),
				applicationPdf
			},
			meta
		);
		expect(await deliverDecision(t.ctx, d.id)).toBe('delivered');
		return { applicationId, session: s, decision: d, applicationPdf: applicationPdf! };
	}

	it('records the application PDF as offered, once per session, with the decision', async () => {
		const { applicationId, session, decision, applicationPdf } = await linkSigning();
		expect(applicationPdf.sha256).toMatch(/^[0-9a-f]{64}$/);
		expect(applicationPdf.pages).toBeGreaterThan(1);
		// The service renders a new file every time; the session keeps the one it was offered.
		const again = await offerApplicationPdf(t.ctx, session);
		expect(again.sha256).toBe(applicationPdf.sha256);
		const event = (await listAudit(t.ctx.db, 1207, applicationId)).find(
			(e) => e.type === 'decision.accepted'
		)!;
		expect(event.data).toMatchObject({
			decisionId: decision.id,
			signature: 'Dana Whitfield',
			applicationPdf: { sha256: applicationPdf.sha256, pages: applicationPdf.pages }
		});
		expect(decision.signature).toBe('Dana Whitfield');
	});

	it('says who made a link the portal did not email, so that no reviewer reads a gap', async () => {
		for (const [by, words] of [
			[BY_OPERATOR_API, 'Signing link from the operator API (not emailed by the portal)'],
			[
				'rep:c0ffee00-0000-4000-8000-000000000031',
				'Signing link a rep made to pass on (not emailed by the portal)'
			],
			[BY_SANDBOX_DEMO, 'Signing link from the sandbox’s demo (not emailed by the portal)']
		] as const) {
			const { applicationId, session } = await linkSigning({ notEmailedBy: by });
			const file = write(
				`not-emailed-${applicationId}.pdf`,
				await certificatePdf(t.ctx, {
					officeId: 1207,
					applicationId,
					audience: 'merchant',
					sessionId: session.id,
					origin: ORIGIN
				})
			);
			// In the order it is drawn: the layout's columns interleave a value that wraps.
			const p1 = pages(file, 'raw')[0]!.replace(/\s+/g, ' ');
			expect(p1, by).toContain(words);
			expect(p1, by).not.toContain('Emailed signing link');
		}
	});

	it('prints a readable, sealed certificate of at most three pages for the signer', async () => {
		const { applicationId, decision, applicationPdf, session } = await linkSigning({
			failFirst: true
		});
		const bytes = await certificatePdf(t.ctx, {
			officeId: 1207,
			applicationId,
			audience: 'merchant',
			sessionId: session.id,
			origin: ORIGIN
		});
		const file = write('merchant.pdf', bytes);
		expect(run('pdfsig', [file])).toContain('Signature Validation: Signature is Valid.');
		const text = pages(file);
		expect(text.length).toBeLessThanOrEqual(3);
		const p1 = text[0]!;
		for (const expected of [
			'Certificate of Completion',
			'Blue Heron Bakery',
			`Merchant application ${applicationId}, office 1207`,
			'SIGNED',
			'Dana Whitfield',
			'dana@blueheronbakery.example',
			'203.0.113.45',
			'Safari 17.4 on iOS 17.4 (Apple iPhone)',
			decision.id,
			'Emailed signing link, sent to',
			'Passed on try 2',
			'Never stored; only the outcome',
			'UTC',
			'Terms and Conditions',
			'Individual Guaranty',
			'Consent to electronic records',
			CONSENT_SHA256,
			'Application PDF',
			applicationPdf.sha256,
			`${applicationPdf.pages} pages`,
			'Hash chain verified: all',
			`${ORIGIN}/verify/${decision.id}`
		]) {
			expect(p1, expected).toContain(expected);
		}
		// The service's version of its language, and the section the office does not present.
		expect(p1).toMatch(/Terms version\s+2026-09-01/);
		expect(p1).toMatch(/Seasonal Addendum\s+not presented/);
		// All five in the order the signed copy's flags are in, presented or not.
		const listed = p1.slice(p1.search(/documents presented/i));
		const at = ACCEPTANCE_SECTIONS.map((a) => listed.indexOf(a.title));
		expect(at.every((i) => i >= 0)).toBe(true);
		expect(at).toEqual([...at].sort((a, b) => a - b));
		expect(p1).toMatch(/C[SD]T \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)/);
		expect(p1).toMatch(/Service decision\s+No\. \d+/);
		const all = text.join('\n');
		expect(all).toContain('TIMELINE OF THE SIGNING SESSION');
		expect(all).toContain('The answers were not verified');
		expect(all).toContain('typing “Dana Whitfield” as their signature');
		expect(all).toContain('delivered to the onboarding service');
		expect(all.replace(/\s+/g, ' ')).toContain('the signed copy prints it too');
		// The signer's copy: their session only, no operator or other addresses, no appendix; it
		// says the trail holds more (links made and sent, delivery), and where.
		const count = (await listAudit(t.ctx.db, 1207, applicationId)).length;
		expect(all.replace(/\s+/g, ' ')).toMatch(
			new RegExp(
				`trail holds ${count} events in all, of which this session's are shown here; the rep's and operator's copy lists them all\\.`
			)
		);
		expect(all).not.toContain('APPENDIX');
		expect(all).not.toContain('198.51.100.2');
		expect(ssnShaped(all)).toEqual([]);
		expect(all).not.toContain(SSN);
		expect(qrOnPage1(file)).toBe(`${ORIGIN}/verify/${decision.id}`);
	});

	it('points a decline’s certificate to no signed copy, which a decline does not have', async () => {
		const { applicationId } = await linkSigning({ declined: true });
		const file = write(
			'declined.pdf',
			await certificatePdf(t.ctx, { officeId: 1207, applicationId, audience: 'merchant' })
		);
		const all = pages(file).join('\n').replace(/\s+/g, ' ');
		expect(all).toContain('Declined');
		expect(all).toContain('Reason given “The fees are too high”');
		expect(all).toContain('The certificate hash covers the facts above as fixed at the decision.');
		expect(all).not.toContain('signed copy');
		// Nothing was signed: the channel's heading says how it was decided.
		expect(all).toMatch(/how it was decided/i);
		expect(all).not.toMatch(/how it was signed/i);
	});

	it('prints the rep and the photo-ID attestation of an in-person signing, in three pages', async () => {
		const { applicationId } = await linkSigning({ inPerson: true });
		for (const audience of ['merchant', 'rep'] as const) {
			const file = write(
				`in-person-${audience}.pdf`,
				await certificatePdf(t.ctx, { officeId: 1207, applicationId, audience })
			);
			expect(run('pdfsig', [file])).toContain('Signature is Valid.');
			const text = pages(file, 'raw');
			const before = text.findIndex((p) => p.includes('APPENDIX'));
			expect(before === -1 ? text.length : before).toBeLessThanOrEqual(3);
			const p1 = text[0]!.replace(/\s+/g, ' ');
			for (const expected of [
				'In person, on the rep’s device, with Jordan Alvarez, rep no. 31',
				'Photo ID Checked by the rep: Driver’s license ending K7Q2',
				'In-person signing started',
				'Passed on try 1'
			]) {
				expect(p1, expected).toContain(expected);
			}
			expect(p1).not.toContain('Signing link emailed');
			expect(text.join(' ').replace(/\s+/g, ' ')).toContain(
				'Jordan Alvarez (rep 31) started an in-person signing on their device after checking the signer’s photo ID.'
			);
		}
		// The signed copy's signature page says so too: the address and device it prints are the
		// rep's tablet's, not the merchant's own.
		const copy = write(
			`in-person-copy-${applicationId}.pdf`,
			await signedCopyPdf(t.ctx, { officeId: 1207, applicationId, origin: ORIGIN })
		);
		const signature = pages(copy).at(-1)!.replace(/\s+/g, ' ');
		expect(signature).toContain(
			'Channel In person, on the rep’s device, with Jordan Alvarez, rep no. 31'
		);
		expect(signature).toContain('Photo ID Checked by the rep: Driver’s license ending K7Q2');
	});

	it('prints the check of the last hand-over before the decision, under which the merchant went on', async () => {
		const again = { ...REP, idType: 'Passport', idLast4: '9Z81' };
		const { applicationId } = await linkSigning({ inPerson: true, handedOverAgain: again });
		const file = write(
			'in-person-again.pdf',
			await certificatePdf(t.ctx, { officeId: 1207, applicationId, audience: 'merchant' })
		);
		const p1 = pages(file, 'raw')[0]!.replace(/\s+/g, ' ');
		expect(p1).toContain(
			'Photo ID Checked by the rep: Passport ending 9Z81, at the last hand-over'
		);
		expect(p1).not.toContain('K7Q2');
		// The key steps say when that was, beside the first hand-over's start.
		expect(p1).toMatch(/In-person signing started .*Handed to the signer again, photo ID checked /);
	});

	it('adds the whole trail as an appendix to the rep’s copy', async () => {
		const { applicationId } = await linkSigning();
		const bytes = await certificatePdf(t.ctx, {
			officeId: 1207,
			applicationId,
			audience: 'rep',
			origin: ORIGIN
		});
		const file = write('rep.pdf', bytes);
		expect(run('pdfsig', [file])).toContain('Signature is Valid.');
		const text = pages(file);
		const appendixAt = text.findIndex((p) =>
			p.includes('APPENDIX: THE APPLICATION’S FULL AUDIT TRAIL')
		);
		expect(appendixAt).toBeGreaterThan(0);
		expect(appendixAt).toBeLessThanOrEqual(3);
		// Its first page says whose copy it is.
		expect(text[0]!.replace(/\s+/g, ' ')).toContain(
			'The office’s copy, with the application’s whole audit trail: not the copy for the signer.'
		);
		const appendix = text.slice(appendixAt).join('\n');
		const events = await listAudit(t.ctx.db, 1207, applicationId);
		for (const e of events) expect(appendix).toContain(e.hash);
		// The JSON each hash is of, attached, a line each: its SHA-256 is the event's hash.
		const saved = detach(file);
		expect(Object.keys(saved)).toEqual(['audit-trail.jsonl']);
		const lines = saved['audit-trail.jsonl']!.toString('utf8').split('\n');
		expect(lines.pop()).toBe('');
		expect(lines.map(sha256)).toEqual(events.map((e) => e.hash));
		expect(lines.map((l) => JSON.parse(l).prevHash)).toEqual(events.map((e) => e.prevHash));
		expect(appendix).toContain('198.51.100.2');
		expect(appendix).toContain('link.created');
		expect(ssnShaped(text.join('\n'))).toEqual([]);
	});

	it('appends the agreement as shown and a signature page to the application as presented, and seals it', async () => {
		const { applicationId, decision, applicationPdf, session } = await linkSigning();
		const bytes = await signedCopyPdf(t.ctx, { officeId: 1207, applicationId, origin: ORIGIN });
		const file = write('signed.pdf', bytes);
		expect(run('pdfsig', [file])).toContain('Signature Validation: Signature is Valid.');
		const text = pages(file);
		const last = text.at(-1)!;

		// After the application, the sections the signer read, as text: each under its title,
		// whether it was accepted and the hash the certificate gives, its words in their order.
		const agreement = text.slice(applicationPdf.pages, -1);
		expect(agreement.length).toBeGreaterThanOrEqual(1);
		const read = agreement.join('\n').replace(/\s+/g, ' ');
		expect(read).toContain('THE AGREEMENT AS SHOWN');
		const shown = session.termsShown ?? [];
		expect(shown.length).toBeGreaterThanOrEqual(3);
		for (const section of shown) {
			expect(read, section.title).toContain(`${section.title.toUpperCase()} - ACCEPTED`);
			expect(read, section.title).toContain(`SHA-256 ${section.sha256}`);
		}
		for (const words of [
			// The guaranty a reviewer most needs to read, a table's row, a link's address.
			'the undersigned individual (the "Guarantor") personally and unconditionally guarantees the full and prompt payment',
			'1. This Guaranty is a guaranty of payment, not of collection.',
			'Qualified discount rate 1.69% Each settled sale',
			'within twenty-four (24) hours to security@processor.example',
			'the PCI Security Standards Council (https://www.pcisecuritystandards.org/)'
		]) {
			expect(read, words).toContain(words);
		}
		expect(agreement[0]).toContain(`The agreement as shown - application ${applicationId}`);
		// Each part numbers its own pages, as the service's PDF before them does, and the signature
		// page (one page: no number) says which of the file's pages each part is.
		const n = agreement.length;
		const first = applicationPdf.pages + 1;
		agreement.forEach((page, i) => {
			if (n > 1) expect(page).toMatch(new RegExp(`Page ${i + 1} of ${n}\\s*$`));
			else expect(page).not.toMatch(/Page \d+ of/);
		});
		expect(last).not.toMatch(/Page \d+ of/);
		expect(last.replace(/\s+/g, ' ')).toContain(
			`This copy holds the ${applicationPdf.pages} pages of the application exactly as they were presented to the signer (pages 1–${applicationPdf.pages}; SHA-256 of that PDF: ${applicationPdf.sha256}), then the agreement they accepted, as text (${n > 1 ? `pages ${first}–${first + n - 1}` : `page ${first}`}), and this page (page ${first + n}).`
		);
		const cert = await certificatePdf(t.ctx, {
			officeId: 1207,
			applicationId,
			audience: 'merchant',
			origin: ORIGIN
		});
		const certHash = /Certificate hash\s+([0-9a-f]{64})/.exec(
			pages(write('c5.pdf', cert))[0]!
		)?.[1];
		expect(certHash).toMatch(/^[0-9a-f]{64}$/);
		for (const expected of [
			'Electronic signature',
			'Dana Whitfield',
			'typed "Dana Whitfield" as their signature',
			'203.0.113.45',
			decision.id,
			applicationPdf.sha256,
			'Terms and Conditions',
			'Seasonal Addendum',
			'Not presented',
			'Accepted',
			certHash!
		]) {
			expect(last, expected).toContain(expected);
		}
		expect(last).toMatch(/Terms version\s+2026-09-01/);
		expect(last).toMatch(/Channel\s+Emailed signing link, sent to dana@blueheronbakery\.example/);
		expect(last).not.toContain('Photo ID');
		// Each printed hash is of a file attached to the copy, which a reviewer can hash again.
		expect(read).toContain(`CONSENT TO ELECTRONIC RECORDS - AGREED SHA-256 ${CONSENT_SHA256}`);
		const saved = detach(file);
		const hashes = Object.fromEntries(Object.entries(saved).map(([n, b]) => [n, sha256(b)]));
		expect(hashes).toEqual({
			...Object.fromEntries(
				shown.map((section, i) => [
					`shown-${i + 1}-${section.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.html`,
					section.sha256
				])
			),
			'shown-consent.txt': CONSENT_SHA256,
			'application-as-presented.pdf': applicationPdf.sha256
		});
		for (const name of Object.keys(saved)) expect(last, name).toContain(name);
		// The pages before them are the presented PDF's, unchanged in text.
		const source = await offerApplicationPdf(t.ctx, {
			id: decision.sessionId,
			officeId: 1207,
			applicationId
		});
		expect(text.slice(0, applicationPdf.pages).join('\f')).toBe(
			pages(write('source.pdf', source.bytes)).join('\f')
		);
		// The application's own numbers (tax id, routing) are the service's to print; no SSN is.
		expect(ssnShaped(last)).toEqual([]);
		expect(text.join('\n')).not.toContain(SSN);
		expect(text.join('\n')).not.toContain(exampleCreateRequest().OwnerOfficer.Ownr1_SSN);
		expect(qrOnPage1(write('sigpage.pdf', await lastPage(bytes)))).toBe(
			`${ORIGIN}/verify/${decision.id}`
		);
	});

	it('a signature part that runs onto a second page numbers both, and says which they are', async () => {
		// The longest names the sign step takes, in letters no font here has: each is printed as its
		// code point ([U+…]), so the signature, its caption and the rows wrap over many lines.
		const signer = {
			firstName: '李小龍'.repeat(33),
			lastName: '王'.repeat(100),
			signature: `${'李小龍'.repeat(33)} ${'王'.repeat(100)}`.slice(0, 210)
		};
		const { applicationId, applicationPdf } = await linkSigning({ signer });
		const bytes = await signedCopyPdf(t.ctx, { officeId: 1207, applicationId, origin: ORIGIN });
		const file = write(`spill-${applicationId}.pdf`, bytes);
		expect(run('pdfsig', [file])).toContain('Signature Validation: Signature is Valid.');
		const text = pages(file);
		const at = text.findIndex((p) => p.includes('SIGNATURE PAGE'));
		const signature = text.slice(at);
		expect(signature).toHaveLength(2);
		signature.forEach((page, i) => expect(page).toContain(`Page ${i + 1} of 2`));
		const n = at - applicationPdf.pages;
		const first = applicationPdf.pages + 1;
		expect(signature[0]!.replace(/\s+/g, ' ')).toContain(
			`then the agreement they accepted, as text (${n > 1 ? `pages ${first}–${first + n - 1}` : `page ${first}`}), and these signature pages (pages ${at + 1}–${at + 2}).`
		);
		// Nothing ran past the foot of a page: under the footer's rule only the footer is printed.
		for (const foot of underFooter(file, at + 1)) {
			expect(foot).toMatch(
				/^Signature page - application \d+ - ref\. \S+ \[U\+…\]: a character .* Page \d of 2$/
			);
		}
		// Drawn once: the first try's pages are not left in the file, neither shown nor as objects
		// that no page leads to (an earlier draft, hidden inside the sealed file).
		expect(text.filter((p) => p.includes('SIGNATURE PAGE'))).toHaveLength(1);
		expect(unreachable(await PDFDocument.load(bytes))).toEqual([]);
	});

	it('prints names in letters Windows-1252 lacks as typed, in an embedded Noto Sans', async () => {
		const fontsOf = (file: string) => run('pdffonts', [file]);
		// Polish, Vietnamese and Cyrillic: the standard fonts printed "Lukasz", "Nguyen", "????".
		for (const signer of [
			{ firstName: 'Łukasz', lastName: 'Żółć', signature: 'Łukasz Żółć' },
			{ firstName: 'Nguyễn Thị', lastName: 'Hương', signature: 'Nguyễn Thị Hương' },
			{ firstName: 'Олег', lastName: 'Петров', signature: 'Олег Петров' }
		]) {
			const name = `${signer.firstName} ${signer.lastName}`;
			const { applicationId } = await linkSigning({ signer });
			const key = { officeId: 1207, applicationId, origin: ORIGIN };
			const copy = write(`signed-${applicationId}.pdf`, await signedCopyPdf(t.ctx, key));
			const cert = write(
				`cert-${applicationId}.pdf`,
				await certificatePdf(t.ctx, { ...key, audience: 'merchant' })
			);
			for (const file of [copy, cert]) {
				expect(run('pdfsig', [file])).toContain('Signature Validation: Signature is Valid.');
				expect(fontsOf(file)).toMatch(/NotoSans-Regular\S*\s+CID TrueType\s+Identity-H\s+yes/);
				// Every font labelled as what its file is (the script face, see labelOpenTypeFonts).
				expect(fontsOf(file)).not.toContain('Mismatch between font type and embedded font file');
			}
			const signaturePage = pages(copy).at(-1)!;
			expect(signaturePage).toContain(`${name} typed "${signer.signature}" as their signature`);
			// With the owner's note (another's names), the page still holds it all above its footer.
			expect(underFooter(copy, pages(copy).length)).toEqual([
				expect.stringMatching(/^Signature page - application \d+ - ref\. \S+$/)
			]);
			// The signature drawn large, on its own line.
			expect(pages(copy, 'raw').at(-1)!.split('\n')).toContain(signer.signature);
			expect(pages(cert)[0]).toContain(name);
			expect(pages(cert)[0]).not.toContain('?');
			// The application names Dana Whitfield as its owner: the certificate says whose identity
			// the questions checked.
			expect(pages(cert, 'raw')[0]!.replace(/\s+/g, ' ')).toContain(
				'Owner Dana Whitfield, as the application names them. The identity questions were about the owner; the signer typed other names.'
			);
			// The note makes the summary longer: the integrity section still stays on one page (its
			// last lines went alone onto a page of their own).
			const sealPage = pages(cert).find((p) => p.includes('Verify at'))!;
			expect(sealPage).toContain('INTEGRITY OF THIS RECORD');
		}
		// A signing in Windows-1252's letters embeds no font but the script, as before; the owner's
		// names typed in another case, or with a space more, are still the owner's.
		const { applicationId } = await linkSigning({
			signer: { firstName: 'DANA ', lastName: 'whitfield', signature: 'Dana Whitfield' }
		});
		const plain = write(
			'plain.pdf',
			await signedCopyPdf(t.ctx, { officeId: 1207, applicationId, origin: ORIGIN })
		);
		expect(fontsOf(plain)).not.toContain('NotoSans');
		expect(fontsOf(plain)).toContain('DancingScript');
		const plainCert = write(
			'plain-cert.pdf',
			await certificatePdf(t.ctx, {
				officeId: 1207,
				applicationId,
				origin: ORIGIN,
				audience: 'merchant'
			})
		);
		expect(pages(plainCert)[0]).not.toContain('as the application names them');
		expect(pages(plainCert)[0]).not.toContain('[U+');
	});

	it('prints Arabic and Hebrew names joined, in reading order, in their Noto faces', async () => {
		// Printed as code points ("[U+0645 U+062D U+0645 U+062F]"): faithful, but no reviewer reads it.
		const wordsOf = (file: string, page: number) =>
			[
				...run('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), file, '-']).matchAll(
					/<word [^>]*>([^<]*)<\/word>/g
				)
			]
				.map((m) =>
					m[1]!
						.replace(/&quot;/g, '"')
						.replace(/&lt;/g, '<')
						.replace(/&gt;/g, '>')
				)
				.join(' ');
		/** Right-to-left words as they lie on the page, left to right, each first letter rightmost. */
		const seen = (words: string) => [...words].reverse().join('');
		for (const [signer, face] of [
			[{ firstName: 'محمد', lastName: 'حسن', signature: 'محمد حسن' }, 'NotoSansArabic'],
			[{ firstName: 'דוד', lastName: 'כהן', signature: 'דוד כהן' }, 'NotoSansHebrew']
		] as const) {
			const { applicationId } = await linkSigning({ signer });
			const key = { officeId: 1207, applicationId, origin: ORIGIN };
			const copy = write(`rtl-${applicationId}.pdf`, await signedCopyPdf(t.ctx, key));
			const cert = write(
				`rtl-cert-${applicationId}.pdf`,
				await certificatePdf(t.ctx, { ...key, audience: 'merchant' })
			);
			for (const file of [copy, cert]) {
				expect(run('pdfsig', [file])).toContain('Signature Validation: Signature is Valid.');
				expect(run('pdffonts', [file])).toMatch(
					new RegExp(`${face}-Regular\\S*\\s+CID TrueType\\s+Identity-H\\s+yes`)
				);
				expect(run('pdffonts', [file])).not.toContain('NotoSans-Regular');
			}
			const name = seen(signer.signature);
			expect(pages(cert)[0]).not.toContain('[U+');
			expect(pages(cert)[0]).not.toContain('?');
			// The name, the signature row and what was typed (poppler reads the rows by column).
			expect(wordsOf(cert, 1).split(name)).toHaveLength(4);
			expect(wordsOf(cert, 1)).toContain(`Typed: ${name}`);
			const last = pages(copy).length;
			expect(pages(copy)[last - 1]).not.toContain('[U+');
			// The caption's sentence; and the signature drawn large, on its own line, as poppler's raw
			// mode reads it: the pieces in the order drawn, left to right (the last name first), each
			// in the order typed.
			expect(wordsOf(copy, last)).toContain(`${name} typed "${name}" as their signature`);
			expect(
				pages(copy, 'raw')
					.at(-1)!
					.split('\n')
					.map((l) => l.replace(/[\u202a-\u202e]/g, ''))
			).toContain(`${signer.lastName} ${signer.firstName}`);
		}
	});

	it('keeps a long signature and its caption inside the signature page’s panel', async () => {
		const firstName = 'Maximilian-Alexander Jean-Baptiste';
		const lastName =
			'Ňoñez-Ødegård de la Fuente y Wolfeschlegelsteinhausenbergerdorff Ó’Súilleabháin';
		for (const signer of [
			{ firstName: 'Dana', lastName: 'Whitfield', signature: 'Dana Whitfield' },
			{ firstName, lastName, signature: `${firstName} ${lastName}` }
		]) {
			const { applicationId } = await linkSigning({ signer });
			const bytes = await signedCopyPdf(t.ctx, { officeId: 1207, applicationId, origin: ORIGIN });
			const file = write(`panel-${applicationId}.pdf`, bytes);
			const last = String((await PDFDocument.load(bytes)).getPageCount());
			// The caption's words, from "as their signature" to the full stop after the time.
			const words = [
				...run('pdftotext', ['-bbox', '-f', last, '-l', last, file, '-']).matchAll(
					/yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</g
				)
			].map((m) => ({ yMin: Number(m[1]), yMax: Number(m[2]), text: m[3]! }));
			const as = words.findIndex(
				(w, i) =>
					w.text === 'as' && words[i + 1]?.text === 'their' && words[i + 2]?.text === 'signature'
			);
			expect(as).toBeGreaterThan(0);
			const end = words.findIndex((w, i) => i > as + 2 && w.text.endsWith('.'));
			const bottom = Math.max(...words.slice(as, end + 1).map((w) => w.yMax));
			// At 72 dpi a pixel is a point: just under the caption's last line, at the panel's left,
			// the panel's grey, not the page's white.
			const prefix = join(dir, `panel-${applicationId}`);
			run('pdftoppm', ['-png', '-r', '72', '-f', last, '-l', last, file, prefix]);
			const png = readdirSync(dir).find(
				(f) => join(dir, f).startsWith(prefix) && f.endsWith('.png')
			)!;
			const image = PNG.sync.read(readFileSync(join(dir, png)));
			const at = (x: number, y: number) => {
				const i = (Math.round(y) * image.width + Math.round(x)) * 4;
				return [image.data[i], image.data[i + 1], image.data[i + 2]];
			};
			for (const below of [2, 6])
				expect(at(50, bottom + below), signer.signature).toEqual(at(50, bottom - 40));
			expect(at(50, bottom - 40)).not.toEqual([255, 255, 255]);
		}
	});

	it('spells out by code point the letters no font here has, and says so on every page', async () => {
		// Chinese and an emoji: printed "???" and "?", which said only that something was there.
		const signer = {
			firstName: 'Dana 李小龍',
			lastName: 'Whitfield 🍰',
			signature: 'Dana 李小龍 Whitfield'
		};
		const { applicationId } = await linkSigning({ signer });
		const key = { officeId: 1207, applicationId, origin: ORIGIN };
		const copy = write(`spelled-${applicationId}.pdf`, await signedCopyPdf(t.ctx, key));
		const cert = write(
			`spelled-cert-${applicationId}.pdf`,
			await certificatePdf(t.ctx, { ...key, audience: 'merchant' })
		);
		const legend =
			'[U+…]: a character the document’s fonts can’t show, written as its Unicode code point.';
		const first = pages(cert)[0]!.replace(/\s+/g, ' ');
		expect(first).toContain('Name Dana [U+674E U+5C0F U+9F8D]');
		expect(first).toContain('Whitfield [U+1F370]');
		expect(first).toContain('Signature Dana [U+674E U+5C0F U+9F8D] Whitfield');
		expect(first).not.toContain('?');
		for (const page of [...pages(cert), ...pages(copy).slice(-1)]) {
			expect(page.replace(/\s+/g, ' ')).toContain(legend);
		}
		expect(pages(copy).at(-1)!.replace(/\s+/g, ' ')).toContain(
			'Dana [U+674E U+5C0F U+9F8D] Whitfield'
		);
	});

	/** The signature page alone, to read its QR code. */
	async function lastPage(bytes: Uint8Array): Promise<Uint8Array> {
		const src = await PDFDocument.load(bytes);
		const out = await PDFDocument.create();
		const [page] = await out.copyPages(src, [src.getPageCount() - 1]);
		out.addPage(page);
		return out.save();
	}

	it('keeps the certificate hash when the certificate is made again later', async () => {
		const { applicationId } = await linkSigning();
		const hashOf = async (now: Date) => {
			const bytes = await certificatePdf(t.ctx, {
				officeId: 1207,
				applicationId,
				audience: 'rep',
				now
			});
			return /Certificate hash\s+([0-9a-f]{64})/.exec(
				pages(write(`h-${now.getTime()}.pdf`, bytes))[0]!
			)?.[1];
		};
		const first = await hashOf(new Date());
		await appendAudit(t.ctx.db, { officeId: 1207, applicationId, type: 'rep.viewed', data: {} });
		expect(await hashOf(new Date(Date.now() + 86_400_000))).toBe(first);
	});

	it('hands out the same document again until the trail grows, then makes it afresh', async () => {
		const { applicationId } = await linkSigning();
		const req = { officeId: 1207, applicationId, audience: 'rep' as const };
		const first = await certificatePdf(t.ctx, req);
		const [again, copy] = await Promise.all([
			certificatePdf(t.ctx, req),
			signedCopyPdf(t.ctx, req)
		]);
		expect(again).toBe(first);
		expect(await signedCopyPdf(t.ctx, req)).toBe(copy);
		await appendAudit(t.ctx.db, { officeId: 1207, applicationId, type: 'rep.viewed', data: {} });
		const later = await certificatePdf(t.ctx, req);
		expect(later).not.toBe(first);
		const count = async (bytes: Uint8Array) => readStamp(await PDFDocument.load(bytes))?.chainCount;
		expect(await count(later)).toBe((await count(first))! + 1);
	});

	it('answers /verify for genuine, tampered, foreign and garbage documents', async () => {
		const { applicationId, decision } = await linkSigning();
		const cert = await certificatePdf(t.ctx, {
			officeId: 1207,
			applicationId,
			audience: 'merchant'
		});
		const copy = await signedCopyPdf(t.ctx, { officeId: 1207, applicationId });
		for (const [bytes, kind] of [
			[cert, 'certificate'],
			[copy, 'signed-copy']
		] as const) {
			const check = await verifyDocument(t.ctx, bytes);
			expect(check).toMatchObject({
				result: 'genuine',
				kind,
				currentKey: true,
				contentMatches: true,
				trailPrefixIntact: true,
				records: { found: true, chainOk: true, applicationId }
			});
		}
		const tampered = Buffer.from(cert);
		const at = tampered.indexOf('/Producer') + 3;
		tampered[at] = tampered[at] === 0x41 ? 0x42 : 0x41;
		expect(await verifyDocument(t.ctx, tampered)).toMatchObject({ result: 'tampered' });

		const foreignKey = { ...readP12(generateSealP12(), ''), source: 'generated' as const };
		const other = await PDFDocument.load(cert);
		const foreign = await sealPdf(other, foreignKey, {
			reason: 'Someone else’s seal',
			location: 'elsewhere',
			signingTime: new Date()
		});
		const foreignCheck = await verifyDocument(t.ctx, foreign);
		expect(foreignCheck).toMatchObject({ result: 'foreign' });
		// The same name as ours may be written on anyone's certificate: the verdict names the key.
		expect(documentVerdict(foreignCheck, 'UTC').lines[0]).toContain(
			`its certificate (SHA-256 ${foreignKey.certSha256.slice(0, 16)}…) is not one of this portal’s keys`
		);
		expect(await verifyDocument(t.ctx, await (await PDFDocument.create()).save())).toEqual({
			result: 'unsealed'
		});
		// A genuine one saved again by a PDF program (pdf-lib packs its objects into streams):
		// the seal can no longer be read, and the verdict says why that may be.
		const resaved = await (await PDFDocument.load(cert)).save();
		expect(await verifyDocument(t.ctx, resaved)).toEqual({ result: 'unsealed' });
		expect(documentVerdict({ result: 'unsealed' }, 'UTC').lines.join(' ')).toContain(
			'rewritten by a PDF program'
		);
		expect(await verifyDocument(t.ctx, Buffer.from('GIF89a garbage'))).toEqual({
			result: 'not-pdf'
		});

		// By reference (the QR code): found, and the trail verifies; unknown references are not.
		expect(await verifyReference(t.ctx, decision.id)).toMatchObject({ found: true, chainOk: true });
		expect(await verifyReference(t.ctx, '00000000-0000-4000-8000-000000000000')).toEqual({
			found: false
		});
		expect(await verifyReference(t.ctx, 'not-a-reference')).toEqual({ found: false });

		// An edited record: the seal is intact, but the records no longer back the document.
		await t.ctx.db
			.update(auditEvents)
			.set({ ip: '192.0.2.99' })
			.where(
				and(eq(auditEvents.applicationId, applicationId), eq(auditEvents.type, 'consent.given'))
			);
		expect(await verifyDocument(t.ctx, cert)).toMatchObject({
			result: 'genuine',
			records: { found: true, chainOk: false }
		});
	});
});
