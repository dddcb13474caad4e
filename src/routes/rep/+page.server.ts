import { error, redirect } from '@sveltejs/kit';
import * as v from 'valibot';
import { app } from '$lib/server/app';
import { attention, FILTER_LABELS, stateDetail, stateLabel } from '$lib/server/console/labels';
import {
	isOfficeApplicationNumber,
	matches,
	officeConsole,
	PAGE_SIZE,
	type ConsoleRow
} from '$lib/server/console/list';
import { STATE_KINDS } from '$lib/server/console/state';
import { officeTime, serviceDate } from '$lib/server/console/time';
import { withoutControlCharacters } from '$lib/server/http/inputs';
import { requireRep } from '$lib/server/reps/guard';
import { databaseUnavailable } from '$lib/server/db/problems';
import { officeUnknown } from '$lib/server/onboarding/errors';
import { looksLikeSsn, shownBackCut } from '$lib/server/signing/ssn';
import { consoleHref } from './href';
import { ConsoleQuerySchema } from './schema';
import type { Actions, PageServerLoad } from './$types';

// The refusal page offers the search again, as typed less what was refused in it (control
// characters, what could not be read), and less what looks like an SSN once cut (the cut can
// leave nine digits of a longer number alone).
function refuseSearch(typed: string, message: string): never {
	const readable = withoutControlCharacters(typed).replaceAll('\uFFFD', '');
	error(400, { message, search: shownBackCut(readable, 100) });
}

// A search that looks like an SSN is sent to the list without it; one of the office's own
// nine-digit application numbers is searched for. The state goes along only when it is one of the
// list's: anything else sent there (an SSN, say) must not reach the address either.
async function refuseSsnSearch(officeId: number, typed: string, state: string): Promise<void> {
	if (looksLikeSsn(typed) && !(await isOfficeApplicationNumber(app(), officeId, typed))) {
		const known = v.is(ConsoleQuerySchema.entries.state, state);
		redirect(303, consoleHref('/rep', { refused: 'ssn', state: known ? state : '' }));
	}
}

export const load: PageServerLoad = async (event) => {
	const rep = requireRep(event);
	event.depends('rep:console');
	const ctx = app();
	const zone = ctx.config.OFFICE_TIME_ZONE;
	// A search that looks like an SSN (an address typed by hand, or from before searches were
	// posted): the console never holds one to find, and the number must not stay in the address
	// bar or the browser's history, so the page is sent again without it (a redirect leaves no
	// history entry).
	const typed = event.url.searchParams.get('q') ?? '';
	await refuseSsnSearch(rep.officeId, typed, event.url.searchParams.get('state') ?? '');
	const query = v.safeParse(ConsoleQuerySchema, {
		q: event.url.searchParams.get('q') ?? undefined,
		state: event.url.searchParams.get('state') ?? undefined,
		page: event.url.searchParams.get('page') ?? undefined
	});
	if (!query.success) refuseSearch(typed, query.issues[0].message);
	const { q, state } = query.output;
	const now = new Date();
	let rows: ConsoleRow[] | null;
	// The service answered 404 to the office's list: it has no such office (an account made for
	// a mistyped office, say), or the portal asks the wrong address. Not "isn't answering".
	let noOffice = false;
	try {
		rows = await officeConsole(ctx, rep.officeId, now);
	} catch (err) {
		// The database away is its own page (503), not the service's silence.
		if (databaseUnavailable(err)) throw err;
		rows = null;
		noOffice = officeUnknown(err);
	}
	const counts = Object.fromEntries(STATE_KINDS.map((k) => [k, 0])) as Record<string, number>;
	for (const r of rows ?? []) counts[r.state.kind]!++;
	const matching = (rows ?? []).filter((r) => matches(r, q) && (!state || r.state.kind === state));
	// A page past the last (a link from before the list got shorter) shows the last one.
	const pages = Math.max(1, Math.ceil(matching.length / PAGE_SIZE));
	const page = Math.min(query.output.page, pages);
	const from = (page - 1) * PAGE_SIZE;
	const shown = matching.slice(from, from + PAGE_SIZE);
	return {
		q,
		state,
		refusedSsn: event.url.searchParams.get('refused') === 'ssn',
		zone,
		updated: officeTime(now, zone),
		refreshSeconds: ctx.config.CONSOLE_REFRESH_SECONDS,
		idleMinutes: ctx.config.REP_SESSION_IDLE_MINUTES,
		unavailable: rows === null && !noOffice,
		noOffice: noOffice ? rep.officeId : null,
		total: rows?.length ?? 0,
		matching: matching.length,
		page,
		pages,
		// A page asked for past the last, said so above the last (an old link, a number typed).
		pastLast: query.output.page > pages ? query.output.page : null,
		from: from + 1,
		states: STATE_KINDS.map((k) => ({ kind: k, label: FILTER_LABELS[k], count: counts[k]! })),
		rows: shown.map((r) => ({
			applicationId: r.applicationId,
			business: r.business,
			owner: r.owner,
			ownerEmail: r.ownerEmail,
			created: serviceDate(r.created),
			kind: r.state.kind,
			label: stateLabel(r.state),
			detail: stateDetail(r.state, zone, { reasonLength: 160 }),
			attention: attention(r.state, zone)
		}))
	};
};

export const actions: Actions = {
	// The console's search, posted so that what was typed reaches no address (above); answered with
	// the list's address for it, or without it when it looks like an SSN.
	search: async (event) => {
		const rep = requireRep(event);
		const form = Object.fromEntries(await event.request.formData());
		const typed = typeof form.q === 'string' ? form.q : '';
		await refuseSsnSearch(rep.officeId, typed, typeof form.state === 'string' ? form.state : '');
		const query = v.safeParse(ConsoleQuerySchema, { q: form.q, state: form.state });
		if (!query.success) refuseSearch(typed, query.issues[0].message);
		redirect(303, consoleHref('/rep', query.output));
	}
};
