import { isHttpError, type RequestEvent } from '@sveltejs/kit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '$lib/server/app';
import { openMemoryDatabase, type Database } from '$lib/server/db';
import { testContext } from '$lib/server/testing/app';
import { midWindow } from '$lib/server/testing/clock';
import { createLink } from './links';
import { openLink, openLinkView, refusedPostRep } from './open';

const MISSES = 3;
const OPENS = 5;

/** What openLink reads of a request: the connection's address, and where Retry-After goes. */
function from(ip: string) {
	const headers: Record<string, string> = {};
	const event = {
		getClientAddress: () => ip,
		setHeaders: (h: Record<string, string>) => Object.assign(headers, h)
	} as unknown as RequestEvent;
	return { event, headers };
}

/** The two ways in: Start's and the decline's, and the link page's view (one statement). */
const OPENERS = { openLink, openLinkView } as const;
type Opener = keyof typeof OPENERS;

async function status(ctx: AppContext, ip: string, token: string, opener: Opener = 'openLink') {
	const { event, headers } = from(ip);
	try {
		await OPENERS[opener](ctx, event, token);
		return { status: 200, retryAfter: headers['retry-after'] };
	} catch (err) {
		if (!isHttpError(err)) throw err;
		return { status: err.status, retryAfter: headers['retry-after'] };
	}
}

describe('opening a signing link', () => {
	let database: Database;
	let ctx: AppContext;
	beforeAll(async () => {
		midWindow(600);
		database = await openMemoryDatabase();
		ctx = testContext(database, 'http://127.0.0.1:9/sandbox', {
			RATE_LIMIT_LINK_MISS: String(MISSES),
			RATE_LIMIT_LINK_OPEN: String(OPENS)
		});
	});
	afterAll(() => {
		vi.useRealTimers();
		return database.close();
	});

	const link = async (applicationId: number) =>
		(
			await createLink(ctx.db, {
				officeId: 1207,
				applicationId,
				email: null,
				createdBy: 'test',
				ttlHours: 168,
				meta: { ip: null, userAgent: null }
			})
		).token;

	describe.each([
		['openLink', '203.0.113'],
		['openLinkView', '192.0.2']
	] as const)('%s', (opener, net) => {
		const open = (ip: string, token: string) => status(ctx, ip, token, opener);

		it('slows down an address that tries unknown tokens, and tells it when to come back', async () => {
			const nat = `${net}.50`;
			for (let i = 0; i < MISSES; i++) {
				expect((await open(nat, `guess-${i}`)).status).toBe(404);
			}
			const blocked = await open(nat, 'one-more-guess');
			expect(blocked.status).toBe(429);
			expect(Number(blocked.retryAfter)).toBeGreaterThan(0);
			// Another address is not affected.
			expect((await open(`${net}.51`, 'a-guess')).status).toBe(404);
		});

		it('still opens a merchant’s real link from an address a neighbour has used up', async () => {
			const nat = `${net}.60`;
			for (let i = 0; i <= MISSES; i++) await open(nat, `guess-${i}`);
			expect((await open(nat, 'yet-another')).status).toBe(429);
			expect((await open(nat, await link(50001))).status).toBe(200);
		});

		it('limits the opens of one link, from whatever address', async () => {
			const token = await link(50002);
			for (let i = 0; i < OPENS; i++) {
				expect((await open(`198.51.100.${i}`, token)).status).toBe(200);
			}
			const over = await open('198.51.100.200', token);
			expect(over.status).toBe(429);
			expect(Number(over.retryAfter)).toBeGreaterThan(0);
			// Other links are not affected.
			expect((await open('198.51.100.200', await link(50003))).status).toBe(200);
		});
	});

	it('counts the page’s views and Start’s opens of a link as one count', async () => {
		const token = await link(50004);
		for (let i = 0; i < OPENS; i++) {
			const opener = i % 2 === 0 ? 'openLinkView' : 'openLink';
			expect((await status(ctx, '198.51.100.7', token, opener)).status).toBe(200);
		}
		expect((await status(ctx, '198.51.100.7', token, 'openLinkView')).status).toBe(429);
		expect((await status(ctx, '198.51.100.7', token, 'openLink')).status).toBe(429);
	});

	it('counts a post refused before the page as the page counts it, and names no one past the limits', async () => {
		// No rep here: the link's maker is no rep, the service is not reachable, no office contact.
		const nat = '198.51.100.60';
		for (let i = 0; i < MISSES; i++) {
			expect(await refusedPostRep(ctx, from(nat).event, `refused-${i}`)).toBeNull();
		}
		expect(await refusedPostRep(ctx, from(nat).event, 'refused-more')).toBeUndefined();
		expect((await status(ctx, nat, 'one-more-guess')).status).toBe(429);
		const token = await link(50006);
		for (let i = 0; i < OPENS; i++) {
			expect(await refusedPostRep(ctx, from('198.51.100.61').event, token)).toBeNull();
		}
		expect(await refusedPostRep(ctx, from('198.51.100.61').event, token)).toBeUndefined();
		expect((await status(ctx, '198.51.100.62', token)).status).toBe(429);
	});

	it('gives the page the link as stored, and no earlier pass or lock where there is none', async () => {
		const created = await createLink(ctx.db, {
			officeId: 1207,
			applicationId: 50005,
			email: 'marcus@tworivershardware.example',
			createdBy: 'test',
			ttlHours: 168,
			meta: { ip: null, userAgent: null }
		});
		const view = await openLinkView(ctx, from('198.51.100.8').event, created.token);
		expect(view).toEqual({ link: created.link, earlier: { kind: 'none' }, lockedUntil: null });
		expect(view.link.expiresAt).toBeInstanceOf(Date);
	});
});
