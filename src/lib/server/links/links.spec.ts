import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditChain, listAudit } from '$lib/server/audit/audit';
import { openMemoryDatabase, schema, type Database } from '$lib/server/db';
import { createLink, findLink, hasUsableLink, linkState, revokeLinks } from './links';

const meta = { ip: '203.0.113.7', userAgent: 'test' };

describe('signing links', () => {
	let database: Database;
	beforeAll(async () => {
		database = await openMemoryDatabase();
	});
	afterAll(() => database.close());

	/** A new link's input for an application of office 1207. */
	const input = (applicationId: number, ttlHours = 168) => ({
		officeId: 1207,
		applicationId,
		email: null,
		createdBy: 'test',
		ttlHours,
		meta
	});
	const make = (applicationId: number, now = new Date()) =>
		createLink(database.db, input(applicationId), now);

	it('stores only a hash of a 256-bit token', async () => {
		const { token, link } = await make(1);
		expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
		const rows = await database.db.select().from(schema.signingLinks);
		expect(JSON.stringify(rows)).not.toContain(token);
		expect(link.tokenHash).toMatch(/^[0-9a-f]{64}$/);
		expect(linkState(await findLink(database.db, token))).toBe('valid');
	});

	it('revokes the previous link of the application when a new one is made', async () => {
		const first = await make(2);
		const second = await make(2);
		expect(linkState(await findLink(database.db, first.token))).toBe('revoked');
		expect(linkState(await findLink(database.db, second.token))).toBe('valid');
		const events = await listAudit(database.db, 1207, 2);
		expect(events.map((e) => e.type)).toEqual(['link.created', 'link.revoked', 'link.created']);
		expect((await verifyAuditChain(database.db, 1207, 2)).ok).toBe(true);
	});

	it('with keep, leaves a link that still opens and makes none; an expired one is replaced', async () => {
		const hour = input(4, 1);
		const start = new Date('2026-02-01T00:00:00Z');
		const first = await createLink(database.db, { ...hour, keep: true }, start);
		expect(first).not.toBeNull();
		expect(await createLink(database.db, { ...hour, keep: true }, start)).toBeNull();
		expect(linkState(await findLink(database.db, first!.token), start)).toBe('valid');
		// An hour later the first has expired: it is revoked, and the new one made.
		const later = new Date('2026-02-01T01:00:00Z');
		const second = await createLink(database.db, { ...hour, keep: true }, later);
		expect(second).not.toBeNull();
		expect(linkState(await findLink(database.db, first!.token), later)).toBe('revoked');
		expect((await verifyAuditChain(database.db, 1207, 4)).ok).toBe(true);
	});

	it('with replaces, makes a link only while the usable one is still the one given', async () => {
		const hour = input(5, 1);
		// None shown, none there: made.
		const first = await createLink(database.db, { ...hour, replaces: null });
		expect(first).not.toBeNull();
		// A page that still shows none, after the first was made (another tab): nothing made or ended.
		expect(await createLink(database.db, { ...hour, replaces: null })).toBeNull();
		expect(linkState(await findLink(database.db, first!.token))).toBe('valid');
		// A page that shows the first replaces it.
		const second = await createLink(database.db, { ...hour, replaces: first!.link.id });
		expect(second?.replaced).toEqual([first!.link.id]);
		// A page that still shows the first, now replaced: refused, the second kept.
		expect(await createLink(database.db, { ...hour, replaces: first!.link.id })).toBeNull();
		expect(linkState(await findLink(database.db, second!.token))).toBe('valid');
		// Two tabs showing the second, posting at once: one link is made, the other tab refused.
		const both = await Promise.all([
			createLink(database.db, { ...hour, replaces: second!.link.id }),
			createLink(database.db, { ...hour, replaces: second!.link.id })
		]);
		expect(both.filter(Boolean)).toHaveLength(1);
		const events = await listAudit(database.db, 1207, 5);
		expect(events.filter((e) => e.type === 'link.created')).toHaveLength(3);
		expect((await verifyAuditChain(database.db, 1207, 5)).ok).toBe(true);
	});

	it('revokes only the link given, while it is still usable; knows whether one is', async () => {
		const ids = { officeId: 1207, applicationId: 7, rep: 'Sam', meta };
		expect(await hasUsableLink(database.db, 1207, 7)).toBe(false);
		const first = await make(7);
		const second = await make(7); // a tab's page still shows the first
		expect(await revokeLinks(database.db, { ...ids, only: first.link.id })).toEqual([]);
		expect(linkState(await findLink(database.db, second.token))).toBe('valid');
		expect(await hasUsableLink(database.db, 1207, 7)).toBe(true);
		expect(await revokeLinks(database.db, { ...ids, only: second.link.id })).toEqual([
			second.link.id
		]);
		expect(linkState(await findLink(database.db, second.token))).toBe('revoked');
		expect(await hasUsableLink(database.db, 1207, 7)).toBe(false);
		// Without one given, whatever link there is.
		const third = await make(7);
		expect(await revokeLinks(database.db, ids)).toEqual([third.link.id]);
		// One that had expired is ended all the same, and its trail says it had.
		const old = await make(7, new Date('2026-01-01T00:00:00Z'));
		expect(await revokeLinks(database.db, { ...ids, reason: 'in_person' })).toEqual([old.link.id]);
		const revoked = (await listAudit(database.db, 1207, 7))
			.filter((e) => e.type === 'link.revoked')
			.map((e) => e.data);
		expect(revoked.at(-1)).toMatchObject({ linkId: old.link.id, expired: true });
		expect(revoked.at(-2)).toMatchObject({ linkId: third.link.id });
		expect(revoked.at(-2)).not.toHaveProperty('expired');
		expect((await verifyAuditChain(database.db, 1207, 7)).ok).toBe(true);
	});

	it('expires after its lifetime and knows nothing of unknown or malformed tokens', async () => {
		const { token } = await make(3, new Date('2026-01-01T00:00:00Z'));
		expect(linkState(await findLink(database.db, token), new Date('2026-01-07T23:59:00Z'))).toBe(
			'valid'
		);
		expect(linkState(await findLink(database.db, token), new Date('2026-01-08T00:00:00Z'))).toBe(
			'expired'
		);
		expect(linkState(await findLink(database.db, 'A'.repeat(43)))).toBe('unknown');
		expect(await findLink(database.db, '../../etc/passwd')).toBeUndefined();
	});
});

describe('sessions of a replaced link', () => {
	it('end when the link is revoked, unless the decision is made', async () => {
		const { createSession, resumeSession } = await import('$lib/server/signing/session');
		const database = await openMemoryDatabase();
		try {
			const make = () =>
				createLink(database.db, {
					officeId: 1207,
					applicationId: 9,
					email: null,
					createdBy: 'test',
					ttlHours: 168,
					meta
				});
			const first = await make();
			const started = await createSession(database.db, {
				channel: 'link',
				linkId: first.link.id,
				repId: null,
				officeId: 1207,
				applicationId: 9,
				businessName: 'B',
				ownerFirstName: '',
				ownerLastName: '',
				ownerEmail: '',
				...meta
			});
			expect(await resumeSession(database.db, started.secret, 30)).toBeDefined();
			await make();
			expect(await resumeSession(database.db, started.secret, 30)).toBeUndefined();
		} finally {
			await database.close();
		}
	});
});
