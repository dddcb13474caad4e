// Walking a merchant through the steps over plain HTTP (no browser), with a cookie jar of its
// own: what the property tests need many of, quickly. Forms are read off the pages as a browser
// would read them, so the tests post the fields the pages really have.
import * as devalue from 'devalue';
import { JSDOM } from 'jsdom';
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import { E2E } from './env';
import {
	controlAnswers,
	createLink,
	newApplication,
	rememberTyped,
	type TestApplication
} from './flow';

export type HttpStep = 'link' | 'terms' | 'identity' | 'sign';

export interface FormField {
	name: string;
	value: string;
	type: string;
}

export interface PageForm {
	/** The action's name: `default` for a form without `?/name`. */
	action: string;
	fields: FormField[];
}

/** The forms of a page and their fields, with the values a browser would send by default. */
export function formsOf(html: string): PageForm[] {
	const { document } = new JSDOM(html).window;
	const actionOf = (url: string | null) =>
		decodeURIComponent(/\?\/([^&]+)/.exec(url ?? '')?.[1] ?? 'default');
	return [...document.querySelectorAll('form')].flatMap((form) => {
		const fields = [...form.querySelectorAll('input[name], select[name], textarea[name]')].map(
			(el) => ({
				name: el.getAttribute('name')!,
				value: el.getAttribute('value') ?? el.textContent ?? '',
				type: el.getAttribute('type') ?? el.localName
			})
		);
		// A button with its own formaction posts the same fields to another action.
		const others = [...form.querySelectorAll('button[formaction]')].map((b) => ({
			action: actionOf(b.getAttribute('formaction')),
			fields
		}));
		return [{ action: actionOf(form.getAttribute('action')), fields }, ...others];
	});
}

/** Text a person reads as the reason for a refusal, from any of the portal's answer shapes. */
export async function reasonOf(res: APIResponse): Promise<{ status: number; reason: string }> {
	const type = res.headers()['content-type'] ?? '';
	const text = await res.text();
	if (type.includes('json')) {
		const body = JSON.parse(text) as Record<string, unknown>;
		if (body.type === 'failure') {
			const data = devalue.parse(String(body.data)) as Record<string, unknown>;
			const strings = JSON.stringify(data).match(/"[^"]{12,}"/g) ?? [];
			return { status: Number(body.status), reason: strings.join(' ') };
		}
		if (body.type === 'error') {
			return {
				status: res.status(),
				reason: String((body.error as { message?: string })?.message ?? '')
			};
		}
		if (body.type === 'redirect') return { status: Number(body.status), reason: '' };
		if (body.type === 'success') return { status: 200, reason: '' };
		return { status: res.status(), reason: String(body.message ?? '') };
	}
	if (type.includes('html')) {
		const { document } = new JSDOM(text).window;
		const alert = [...document.querySelectorAll('[role=alert], .error-text')]
			.map((e) => e.textContent?.trim() ?? '')
			.join(' ');
		const main = document.querySelector('main p')?.textContent?.trim() ?? '';
		return { status: res.status(), reason: alert || main };
	}
	return { status: res.status(), reason: text.slice(0, 300) };
}

/** A cookie jar of its own that sends what our own pages send (same origin). */
export async function newClient(playwright: {
	request: { newContext: (o: object) => Promise<APIRequestContext> };
}) {
	return playwright.request.newContext({
		baseURL: E2E.origin,
		extraHTTPHeaders: { origin: E2E.origin }
	});
}

const plainPost = (client: APIRequestContext, path: string, form: Record<string, string>) =>
	client.post(path, {
		headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
		data: new URLSearchParams(form).toString(),
		maxRedirects: 0
	});

async function expectStep(res: APIResponse, path: string, what: string) {
	expect(res.status(), `${what}: ${(await res.text()).slice(0, 300)}`).toBe(303);
	expect(res.headers().location, what).toBe(path);
}

/**
 * A fresh application walked over HTTP up to `step` in `client`'s cookie jar. The identity step
 * is left with its questions open; the right answers' texts are remembered for the leak search.
 */
export async function walkHttp(
	client: APIRequestContext,
	request: APIRequestContext,
	step: HttpStep,
	label = 'Http'
): Promise<{ app: TestApplication; link: string }> {
	const app = await newApplication(request, label);
	const { path: link } = await createLink(request, app.id);
	if (step === 'link') return { app, link };
	await expectStep(await plainPost(client, `${link}?/start`, {}), '/sign/terms?started', 'start');
	if (step === 'terms') return { app, link };
	const terms = formsOf(await (await client.get('/sign/terms')).text())[0]!;
	const version = terms.fields.find((f) => f.name === 'version')!.value;
	await expectStep(
		await plainPost(client, '/sign/terms?/consent', { consent: 'yes', version }),
		'/sign/identity',
		'consent'
	);
	await expectStep(
		await plainPost(client, '/sign/identity?/start', {}),
		'/sign/identity',
		'identity start'
	);
	if (step === 'identity') return { app, link };
	const page = await (await client.get('/sign/identity')).text();
	const right = await controlAnswers(request, app.id);
	rememberAnswerTexts(page, right);
	await expectStep(
		await plainPost(client, '/sign/identity?/answer', right),
		'/sign/sign',
		'identity answers'
	);
	return { app, link };
}

/** The texts of the right choices on an identity page: answers must never reach a log. */
export function rememberAnswerTexts(html: string, right: Record<string, string>) {
	const { document } = new JSDOM(html).window;
	for (const [name, value] of Object.entries(right)) {
		const input = document.querySelector(`input[name="${name}"][value="${value}"]`);
		const text = input?.closest('label')?.textContent?.trim() ?? '';
		if (text && text !== 'NONE OF THE ABOVE') rememberTyped(text);
	}
}
