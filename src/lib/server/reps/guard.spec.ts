import { isHttpError, isRedirect, type RequestEvent } from '@sveltejs/kit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadFacts } from '$lib/server/console/facts';
import { createLink } from '$lib/server/links/links';
import { createOnboardingClient } from '$lib/server/onboarding';
import { upstreamCacheFor } from '$lib/server/onboarding/cache';
import { exampleCreateRequest } from '$lib/server/onboarding/fixtures';
import { startTestApp } from '$lib/server/testing/app';
import { requireOfficeApplication, requireRep, safeNext } from './guard';
import type { SignedInRep } from './session';

const rep = (officeId: number): SignedInRep => ({
	sessionId: '00000000-0000-4000-8000-000000000000',
	id: '00000000-0000-4000-8000-000000000001',
	officeId,
	repNo: 31,
	name: 'Sam Ortiz',
	email: 'sam@example.com',
	phone: null,
	passwordTemporary: false
});

/** Just what the guards read of a request. */
function event(opts: {
	rep?: SignedInRep;
	applicationId?: string;
	path?: string;
	cookie?: string;
	data?: boolean;
	method?: string;
	ended?: 'idle';
}): RequestEvent {
	const url = new URL(opts.path ?? '/rep', 'http://portal.test');
	return {
		locals: {
			rep: opts.rep,
			signing: undefined,
			repEnded: opts.ended && { reason: opts.ended, repId: 'rep-1', officeId: 1207 }
		},
		params: { applicationId: opts.applicationId },
		url,
		request: new Request(url, { method: opts.method ?? 'GET' }),
		isDataRequest: opts.data ?? false,
		cookies: { get: (name: string) => (name === 'rep_session' ? opts.cookie : undefined) }
	} as unknown as RequestEvent;
}

async function thrown(fn: () => unknown): Promise<unknown> {
	try {
		await fn();
	} catch (err) {
		return err;
	}
	throw new Error('expected a throw');
}

describe('rep guards', () => {
	let t: Awaited<ReturnType<typeof startTestApp>>;
	let otherOfficeApp: number;
	beforeAll(async () => {
		t = await startTestApp();
		// An application of another office, in the same service, numbered in the same series.
		const res = await fetch(`${t.sandbox.baseUrl}/api/office/3300/application`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ ...exampleCreateRequest(), OfficeNo: 3300 })
		});
		expect(res.status).toBe(200);
		otherOfficeApp = Number(((await res.json()) as { ApplicationID: number }).ApplicationID);
	});
	afterAll(() => t.close());

	it('send a visitor without a session to sign-in, and back afterwards', async () => {
		const plain = await thrown(() => requireRep(event({ path: '/rep/applications/50001?x=1' })));
		expect(isRedirect(plain) && plain.location).toBe(
			'/rep/login?next=%2Frep%2Fapplications%2F50001%3Fx%3D1'
		);
		// Not an action's notice: it answered a press made before the session ended.
		const notice = await thrown(() =>
			requireRep(event({ path: '/rep/applications/50001?done=copied&x=1' }))
		);
		expect(isRedirect(notice) && notice.location).toBe(
			'/rep/login?next=%2Frep%2Fapplications%2F50001%3Fx%3D1'
		);
		const ended = await thrown(() => requireRep(event({ cookie: 'stale', data: true })));
		expect(isRedirect(ended) && ended.location).toBe('/rep/login?ended=1');
		// With the reason, when the session hook found it.
		const idle = await thrown(() => requireRep(event({ cookie: 'stale', ended: 'idle' })));
		expect(isRedirect(idle) && idle.location).toBe('/rep/login?ended=idle');
		expect(requireRep(event({ rep: rep(1207) })).officeId).toBe(1207);
		// A document returns to its application's page, not to a file that downloads under the
		// sign-in form.
		const pdf = await thrown(() =>
			requireRep(event({ path: '/rep/applications/50001/certificate.pdf' }))
		);
		expect(isRedirect(pdf) && pdf.location).toBe('/rep/login?next=%2Frep%2Fapplications%2F50001');
	});

	it('keep a rep whose password the operator set on the password page until they choose their own', async () => {
		const temporary = { ...rep(1207), passwordTemporary: true };
		const page = await thrown(() =>
			requireRep(event({ rep: temporary, path: '/rep/applications/50001?x=1' }))
		);
		expect(isRedirect(page) && page.location).toBe(
			'/rep/password?next=%2Frep%2Fapplications%2F50001%3Fx%3D1'
		);
		const home = await thrown(() => requireRep(event({ rep: temporary })));
		expect(isRedirect(home) && home.location).toBe('/rep/password');
		// An action is not done, and sends no address of its own along.
		const action = await thrown(() =>
			requireRep(event({ rep: temporary, path: '/rep/applications/50001', method: 'POST' }))
		);
		expect(isRedirect(action) && action.location).toBe('/rep/password');
		const office = await thrown(() =>
			requireOfficeApplication(
				event({ rep: temporary, applicationId: '50001', path: '/rep/applications/50001' }),
				t.ctx
			)
		);
		expect(isRedirect(office) && office.location).toBe(
			'/rep/password?next=%2Frep%2Fapplications%2F50001'
		);
		// The password page itself takes them.
		expect(
			requireRep(event({ rep: temporary, path: '/rep/password' }), { temporaryPassword: true }).id
		).toBe(temporary.id);
	});

	it('only return to rep pages of ours after sign-in', () => {
		expect(safeNext('/rep/applications/50001')).toBe('/rep/applications/50001');
		expect(safeNext('/rep?q=bakery&state=signed')).toBe('/rep?q=bakery&state=signed');
		for (const bad of [
			'https://evil.example/rep',
			'//evil.example',
			'/rep//evil',
			'/sign/terms',
			'/rep\\x',
			// A dot segment leaves the console once the browser resolves it.
			'/rep/../sign/terms',
			'/rep/..',
			'/rep/applications/../../s/token',
			'/rep/./..?x=1',
			// An SSN typed into an address goes into no other.
			'/rep?q=587-31-4926',
			'/rep?q=587+314+926',
			'/rep?q=587%20314%20926&state=signed',
			'/rep/587-31-4926',
			// One stray escape leaves the rest read all the same.
			'/rep?q=587%20314%20926&x=%',
			null
		]) {
			expect(safeNext(bad), String(bad)).toBe('/rep');
		}
		// An application's number is not one.
		expect(safeNext('/rep/applications/587314926')).toBe('/rep/applications/587314926');
		// A document returns to its application's page.
		expect(safeNext('/rep/applications/50001/signed-copy.pdf')).toBe('/rep/applications/50001');
	});

	it('open an application of the rep’s own office', async () => {
		const found = await requireOfficeApplication(
			event({ rep: rep(1207), applicationId: '50001' }),
			t.ctx
		);
		expect(found.application.DBA_Name).toBe('Blue Heron Bakery');
		expect(found.applicationId).toBe(50001);
		const theirs = await requireOfficeApplication(
			event({ rep: rep(3300), applicationId: String(otherOfficeApp) }),
			t.ctx
		);
		expect(Number(theirs.application.OfficeNo)).toBe(3300);
	});

	it('answer 404 for another office’s application, either way round, and for any odd id', async () => {
		const cases: [number, string][] = [
			[1207, String(otherOfficeApp)],
			[3300, '50001'],
			[1207, '59999'],
			[1207, '50001abc'],
			[1207, '-1'],
			[1207, '1e3'],
			[1207, '']
		];
		for (const [office, id] of cases) {
			const err = await thrown(() =>
				requireOfficeApplication(event({ rep: rep(office), applicationId: id }), t.ctx)
			);
			expect(isHttpError(err, 404), `office ${office}, application "${id}"`).toBe(true);
		}
	});

	it('show a page from a copy no older than the console refresh, and act on the service anew', async () => {
		const list = vi.spyOn(t.ctx.onboarding, 'listApplications');
		try {
			const page = () =>
				requireOfficeApplication(event({ rep: rep(1207), applicationId: '50001' }), t.ctx);
			await page();
			const afterFirst = list.mock.calls.length;
			// A reload and the page's own refresh within the console's refresh: no call.
			await page();
			await page();
			expect(list.mock.calls.length).toBe(afterFirst);
			// An action always asks the service.
			const action = () =>
				requireOfficeApplication(
					event({ rep: rep(1207), applicationId: '50001', method: 'POST' }),
					t.ctx
				);
			await action();
			await action();
			expect(list.mock.calls.length).toBe(afterFirst + 2);
		} finally {
			list.mockRestore();
		}
	});

	it('answer 503, not 404, when the service cannot say', async () => {
		const down = {
			...t.ctx,
			onboarding: createOnboardingClient({ baseUrl: 'http://127.0.0.1:9/sandbox', timeoutMs: 500 }),
			// Nothing kept from earlier calls: the page has to ask the service.
			upstreamCache: upstreamCacheFor(t.ctx.config)
		};
		for (const method of ['GET', 'POST']) {
			const err = await thrown(() =>
				requireOfficeApplication(event({ rep: rep(1207), applicationId: '50001', method }), down)
			);
			expect(isHttpError(err, 503)).toBe(true);
		}
	});

	it('read the portal’s records of one office only', async () => {
		const meta = { ip: null, userAgent: null };
		await createLink(t.ctx.db, {
			officeId: 3300,
			applicationId: 50002,
			email: 'x@example.com',
			createdBy: 'test',
			ttlHours: 1,
			meta
		});
		const mine = await loadFacts(t.ctx.db, 1207, [50002]);
		expect(mine.get(50002)!.links).toEqual([]);
		const theirs = await loadFacts(t.ctx.db, 3300, [50002]);
		expect(theirs.get(50002)!.links).toHaveLength(1);
	});
});
