import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMemoryDatabase, type Database } from '$lib/server/db';
import { auditEvents } from '$lib/server/db/schema';
import { appendAudit, listAudit, verifyAuditChain } from './audit';
import { renderCertificate } from './certificate';
import { dataLines, typeLabel } from './labels';

async function pdfText(bytes: Uint8Array): Promise<string> {
	const proxy = await getDocumentProxy(new Uint8Array(bytes));
	const { text } = await extractText(proxy, { mergePages: true });
	return text;
}

describe('renderCertificate', () => {
	let database: Database;
	beforeAll(async () => {
		database = await openMemoryDatabase();
	});
	afterAll(() => database?.close());

	const OFFICE = 1207;
	const sectionHash = (c: string) => c.repeat(64);

	async function trail(app: number) {
		const common = {
			officeId: OFFICE,
			applicationId: app,
			channel: 'link' as const,
			ip: '203.0.113.7',
			userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1',
			sessionId: randomUUID()
		};
		await appendAudit(database.db, { ...common, type: 'link.opened', data: { linkId: 'l-1' } });
		await appendAudit(database.db, {
			...common,
			type: 'terms.shown',
			data: {
				sections: [
					{ key: 'terms', title: 'Terms and conditions', sha256: sectionHash('a') },
					{ key: 'guaranty', title: 'Personal guaranty', sha256: sectionHash('b') }
				]
			}
		});
		await appendAudit(database.db, { ...common, type: 'identity.passed', data: {} });
		await appendAudit(database.db, {
			...common,
			type: 'decision.accepted',
			rep: 'R-17',
			data: { ssnLast4: '6789', sectionsAccepted: { terms: true, guaranty: true } }
		});
		await appendAudit(database.db, { ...common, type: 'tablet.handed_back', data: {} });
	}

	it('prints the summary, every event with its data and hash, and the head hash', async () => {
		const app = 50001;
		await trail(app);
		const events = await listAudit(database.db, OFFICE, app);
		const verification = await verifyAuditChain(database.db, OFFICE, app);
		expect(verification.ok).toBe(true);
		const bytes = await renderCertificate({
			officeId: OFFICE,
			applicationId: app,
			businessName: 'Blue Heron Bakery LLC',
			signerName: 'Ada Lovelace',
			outcome: 'accepted',
			decisionReference: '81234',
			events,
			verification,
			generatedAt: new Date('2025-03-04T05:06:07.000Z')
		});
		expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
		const text = await pdfText(bytes);
		for (const expected of [
			'Signing certificate',
			'Blue Heron Bakery LLC',
			'Ada Lovelace',
			'Accepted and signed',
			'81234',
			'The chain of 5 events is intact',
			'Signing link opened',
			'Acceptance terms shown',
			'Identity verified',
			'Application accepted and signed',
			'Tablet: handed back',
			'203.0.113.7',
			'Signing link',
			'R-17',
			`sections[0].sha256: ${sectionHash('a')}`,
			`sections[1].sha256: ${sectionHash('b')}`,
			'ssnLast4: 6789',
			'2025-03-04 05:06:07.000 UTC'
		]) {
			expect(text).toContain(expected);
		}
		if (!verification.ok) throw new Error('unreachable');
		expect(text).toContain(verification.head);
		for (const e of events) {
			expect(text).toContain(e.hash);
			expect(text).toContain(e.at.toISOString().replace('T', ' ').replace('Z', ' UTC'));
		}
		// Hashes and ids are random hex, which holds a run of nine digits now and then: take them
		// out first, so that what is left can be searched for anything shaped like an SSN.
		const prose = text
			.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '')
			.replace(/[0-9a-f]{64}/g, '');
		expect(prose).not.toMatch(/(?<!\d)\d{9}(?!\d)/);
		expect(prose).not.toMatch(/\d{3}-\d{2}-\d{4}/);
	});

	it('says plainly when the chain is broken', async () => {
		const app = 50002;
		await trail(app);
		await database.db
			.update(auditEvents)
			.set({ ip: '198.51.100.9' })
			.where(
				and(
					eq(auditEvents.officeId, OFFICE),
					eq(auditEvents.applicationId, app),
					eq(auditEvents.seq, 2)
				)
			);
		const bytes = await renderCertificate({
			officeId: OFFICE,
			applicationId: app,
			businessName: 'Łódź Café ✓',
			signerName: 'Zoë',
			outcome: 'declined',
			decisionReference: null,
			events: await listAudit(database.db, OFFICE, app),
			verification: await verifyAuditChain(database.db, OFFICE, app),
			generatedAt: new Date()
		});
		const text = await pdfText(bytes);
		expect(text).toContain('THE RECORD HAS BEEN ALTERED');
		expect(text).toContain('chain breaks at event 2 of 5');
		expect(text).toContain('Declined');
		expect(text).toContain('Lódz Café');
	});
});

describe('certificate labels', () => {
	it('turns types into plain words', () => {
		expect(typeLabel('consent.given')).toBe('Consent to electronic records given');
		expect(typeLabel('rep.tablet_unlocked')).toBe('Rep: tablet unlocked');
		expect(typeLabel('custom')).toBe('Custom');
	});

	it('flattens data into key: value lines', () => {
		expect(dataLines({ a: 1, b: { c: [true, null], d: [] }, e: 'x', f: {} })).toEqual([
			'a: 1',
			'b.c[0]: yes',
			'b.c[1]: none',
			'b.d: (none)',
			'e: x',
			'f: (none)'
		]);
		expect(dataLines({})).toEqual([]);
	});
});
