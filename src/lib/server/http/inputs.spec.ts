import * as devalue from 'devalue';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRequest, hasControlCharacter, parseJsonBody, type InputProblem } from './inputs';
import { problemResponse, type SigningContact } from './problem';

const ORIGIN = 'http://portal.test';
const SEED = Number(process.env.PROPERTY_SEED ?? 20_260_901);

function request(path: string, init: { type?: string; body?: BodyInit; accept?: string } = {}) {
	const headers: Record<string, string> = {};
	if (init.type) headers['content-type'] = init.type;
	if (init.accept) headers.accept = init.accept;
	const r = new Request(`${ORIGIN}${path}`, { method: 'POST', headers, body: init.body });
	return [r, new URL(r.url)] as const;
}
const check = (...args: Parameters<typeof request>) => checkRequest(...request(...args));
const urlencoded = (fields: [string, string][]) => ({
	type: 'application/x-www-form-urlencoded',
	body: new URLSearchParams(fields).toString()
});

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

describe('form action names', () => {
	it.each([...PROTOTYPE_NAMES, 'default'])('refuses ?/%s with a 404', async (name) => {
		const problem = await check(`/s/anything?/${name}`, urlencoded([['a', '1']]));
		expect(problem).toMatchObject({ status: 404, errors: { action: expect.any(String) } });
	});

	it('lets ordinary names and default-action posts through', async () => {
		expect(await check('/sign/sign?/accept', urlencoded([['a', '1']]))).toBeNull();
		expect(await check('/sign/terms', urlencoded([['a', '1']]))).toBeNull();
		expect(await check('/sign/terms?x=1&/nope', urlencoded([['a', '1']]))).toBeNull();
	});
});

describe('form bodies', () => {
	it('refuses bodies request.formData() cannot read, with a 400', async () => {
		for (const init of [
			{ type: 'multipart/form-data; boundary=zz', body: 'garbage' },
			{ type: 'multipart/form-data', body: '--zz\r\n' },
			{ type: 'multipart/form-data; boundary=zz', body: '--zz\r\nContent-Disposition: x\r\n\r\n' }
		]) {
			expect(await check('/sign/sign?/accept', init)).toMatchObject({ status: 400 });
		}
	});

	it.each(['text/plain', 'application/x-sveltekit-formdata'])(
		'refuses %s with a 415',
		async (t) => {
			expect(await check('/sign/sign?/accept', { type: t, body: 'a=1' })).toMatchObject({
				status: 415
			});
		}
	);

	it('refuses JSON posted to a page with the same 415, whether it parses or not', async () => {
		for (const body of ['{"reason":"x"}', '{', '{"__proto__":{}}']) {
			for (const type of ['application/json', 'application/problem+json; charset=utf-8']) {
				const problem = await check('/sign/terms?/consent', { type, body });
				expect(problem, `${type} ${body}`).toMatchObject({
					status: 415,
					message: expect.stringContaining('Forms are accepted only as')
				});
				expect(Object.keys(problem!.errors)).toEqual(['content-type']);
			}
		}
	});

	it('refuses text that was not UTF-8 (read as U+FFFD), naming the field, in a form of either kind', async () => {
		// Latin-1 bytes for "Frais élevés", sent as they are.
		const latin1 = new Uint8Array([
			...Buffer.from('reason=Frais '),
			0xe9,
			...Buffer.from('lev'),
			0xe9,
			0x73
		]);
		const problem = await check('/s/t?/decline', {
			type: 'application/x-www-form-urlencoded',
			body: latin1
		});
		expect(problem).toMatchObject({
			status: 400,
			message: expect.stringContaining('can’t be read')
		});
		expect(problem!.errors).toEqual({ reason: expect.stringContaining('not sent as UTF-8') });
		const multipart = new TextEncoder().encode(
			'--b\r\nContent-Disposition: form-data; name="firstName"\r\n\r\nDa'
		);
		const body = new Uint8Array([
			...multipart,
			0xff,
			0xfe,
			...new TextEncoder().encode('na\r\n--b--\r\n')
		]);
		expect(
			await check('/sign/sign?/accept', { type: 'multipart/form-data; boundary=b', body })
		).toMatchObject({ status: 400, errors: { firstName: expect.stringContaining('UTF-8') } });
		// The same text sent as UTF-8 is taken.
		expect(await check('/s/t?/decline', urlencoded([['reason', 'Frais élevés']]))).toBeNull();
	});

	it('refuses a control character in any field, naming the field', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.string({ maxLength: 20 }),
				fc.string({ maxLength: 40 }),
				fc.integer({ min: 0, max: 0x9f }).filter((c) => c < 0x20 || c >= 0x7f),
				fc.nat(),
				async (name, text, code, at) => {
					fc.pre(!hasControlCharacter(name) && ![9, 10, 13].includes(code));
					const value = text.slice(0, at % (text.length + 1)) + String.fromCharCode(code) + text;
					const problem = await check('/rep/anything?/save', urlencoded([[name, value]]));
					expect(problem?.status).toBe(400);
					expect(Object.keys(problem!.errors)).toEqual([name]);
				}
			),
			{ seed: SEED, numRuns: 200 }
		);
	});

	it('refuses a field sent twice, whatever its values: an action would take the last', async () => {
		const twice = await check(
			'/sign/terms?/consent',
			urlencoded([
				['consent', 'no'],
				['version', 'a'.repeat(64)],
				['consent', 'yes']
			])
		);
		expect(twice?.status).toBe(400);
		expect(twice?.message).toMatch(/^A field was sent more than once/);
		expect(twice?.errors).toEqual({ consent: 'Sent more than once.' });
		const multipart = new FormData();
		multipart.append('q-1', '2');
		multipart.append('q-1', '2');
		const same = await check('/sign/identity?/answer', { body: multipart });
		expect(same?.errors).toEqual({ 'q-1': 'Sent more than once.' });
		// Each name once, as every page of ours sends them: through.
		expect(
			await check(
				'/sign/terms?/consent',
				urlencoded([
					['consent', 'yes'],
					['version', 'a']
				])
			)
		).toBeNull();
	});

	it('says back no field name that looks like an SSN', async () => {
		const problem = await check('/sign/sign?/accept', urlencoded([['587-31-4926', 'a\u0000']]));
		expect(problem?.errors).toEqual({ '[number]': expect.stringContaining('control character') });
		const json = parseJsonBody('{"587 314 926":{"x":"a\\u0000"}}');
		expect(!json.ok && json.problem.errors).toEqual({ '[number].x': expect.any(String) });
	});

	it('refuses the invisible text-direction overrides and isolates, but not right-to-left text', async () => {
		for (const code of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]) {
			const value = `Fees too high ${String.fromCharCode(code)}live${String.fromCharCode(0x202c)}`;
			const problem = await check('/sign/terms?/decline', urlencoded([['reason', value]]));
			expect(problem, code.toString(16)).toMatchObject({ status: 400 });
			expect(Object.keys(problem!.errors)).toEqual(['reason']);
		}
		expect(
			await check('/sign/terms?/decline', urlencoded([['reason', 'שלום \u200fעולם']]))
		).toBeNull();
	});

	it('accepts tabs and line breaks (a textarea sends them) and any other unicode text', async () => {
		await fc.assert(
			fc.asyncProperty(
				// Each name once, as a page's form sends them (a repeated one is refused, above).
				fc.uniqueArray(
					fc.tuple(
						fc.string({ unit: 'grapheme', maxLength: 10 }),
						fc.string({ unit: 'grapheme', maxLength: 60 })
					),
					{ maxLength: 8, selector: ([name]) => name }
				),
				async (fields) => {
					const readable = (t: string) => !hasControlCharacter(t) && !t.includes('\uFFFD');
					fc.pre(fields.every(([n, v]) => readable(n) && readable(v)));
					const withBreaks = fields.map(([n, v]) => [n, `${v}\r\n\t${v}`] as [string, string]);
					expect(await check('/sign/sign?/decline', urlencoded(withBreaks))).toBeNull();
				}
			),
			{ seed: SEED, numRuns: 100 }
		);
	});

	it('reads multipart bodies too', async () => {
		const body = new FormData();
		body.append('firstName', 'Da\u0000na');
		const problem = await checkRequest(
			new Request(`${ORIGIN}/sign/sign?/accept`, { method: 'POST', body }),
			new URL(`${ORIGIN}/sign/sign?/accept`)
		);
		expect(problem).toMatchObject({ status: 400, errors: { firstName: expect.any(String) } });
	});

	it('never throws, whatever the content type and body', async () => {
		const types = fc.constantFrom(
			'application/x-www-form-urlencoded',
			'multipart/form-data; boundary=b',
			'multipart/form-data',
			'text/plain',
			'application/json',
			'application/x-sveltekit-formdata',
			'application/octet-stream',
			''
		);
		await fc.assert(
			fc.asyncProperty(
				types,
				fc.string({ maxLength: 200 }),
				fc.constantFrom('/sign/sign?/accept', '/api/v1/x', '/s/t'),
				async (type, body, path) => {
					const problem = await check(path, { type, body });
					if (problem) expect([400, 404, 415]).toContain(problem.status);
				}
			),
			{ seed: SEED, numRuns: 300 }
		);
	});

	it('leaves the sandbox and safe methods alone', async () => {
		expect(await check('/sandbox/_sandbox/reset', { type: 'text/plain', body: '\u0000' })).toBe(
			null
		);
		const get = new Request(`${ORIGIN}/sign/terms?/__proto__`);
		expect(await checkRequest(get, new URL(get.url))).toBeNull();
	});
});

describe('JSON bodies', () => {
	it.each(['__proto__', 'constructor', 'prototype'])('refuses a %s key at any depth', (key) => {
		for (const text of [`{"${key}":{}}`, `{"a":[{"${key}":1}]}`]) {
			const body = parseJsonBody(text);
			expect(body.ok).toBe(false);
			if (!body.ok) expect(body.problem.status).toBe(400);
		}
	});

	it('refuses control characters in strings and keys, text that was not UTF-8, and unparseable text', () => {
		for (const text of [
			'{"email":"a\\u0000b"}',
			'{"a\\u0007":1}',
			'{"n":"a\uFFFDb"}',
			'{',
			'[1,',
			'nul'
		]) {
			expect(parseJsonBody(text).ok).toBe(false);
		}
	});

	it('accepts ordinary JSON, empty bodies as {}, and deep nesting without overflowing', () => {
		expect(parseJsonBody('')).toEqual({ ok: true, value: {} });
		expect(parseJsonBody('{"email":"a@b.example","n":[1,{"x":null}]}').ok).toBe(true);
		const deep = '['.repeat(3000) + ']'.repeat(3000);
		expect(parseJsonBody(deep).ok).toBe(true);
	});

	it('under /api/, checks JSON bodies and refuses a body sent as anything else, with a 415', async () => {
		const api = '/api/v1/offices/1/applications/2/signing-links';
		const proto = await check(api, {
			type: 'application/json; charset=utf-8',
			body: '{"__proto__":{"admin":true}}'
		});
		expect(proto?.status).toBe(400);
		expect(Object.keys(proto!.errors)).toEqual(['__proto__']);
		for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
			const problem = await check(api, { type, body: '{"email":"a@b.example"}' });
			expect(problem, String(type)).toMatchObject({ status: 415 });
			expect(Object.keys(problem!.errors)).toEqual(['content-type']);
		}
		// adapter-node hands on no body without a type: the length says one was sent all the same.
		const bare = new Request(`${ORIGIN}${api}`, {
			method: 'POST',
			headers: { 'content-length': '24' }
		});
		expect(await checkRequest(bare, new URL(bare.url))).toMatchObject({
			status: 415,
			errors: { 'content-type': 'a body without a type is not accepted here' }
		});
		// In chunks, it may be empty, which the server cannot see: the refusal says how to send none.
		const chunked = new Request(`${ORIGIN}${api}`, {
			method: 'POST',
			headers: { 'transfer-encoding': 'chunked' }
		});
		expect((await checkRequest(chunked, new URL(chunked.url)))?.message).toContain(
			'With no body, send none'
		);
		// No body needs no type; a JSON type with a suffix is JSON.
		expect(await check(api)).toBeNull();
		expect(await check(api, { type: 'text/plain', body: '  ' })).toBeNull();
		expect(await check(api, { type: 'application/vnd.x+json', body: '{}' })).toBeNull();
	});

	it('under /api/, refuses a compressed body rather than read it as text', async () => {
		const r = new Request(`${ORIGIN}/api/v1/offices/1/applications/2/signing-links`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
			body: '{}'
		});
		const problem = await checkRequest(r, new URL(r.url));
		expect(problem).toMatchObject({ status: 415 });
		expect(Object.keys(problem!.errors)).toEqual(['content-encoding']);
	});

	it('answers a body the client stopped sending with a 400, rather than failing', async () => {
		// What the request's stream does when the client resets the connection mid-body.
		const body = new ReadableStream<Uint8Array>({
			start(controller) {
				controller.enqueue(new TextEncoder().encode('{"email":'));
				controller.error(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
			}
		});
		const r = new Request(`${ORIGIN}/api/v1/offices/1/applications/2/signing-links`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body,
			duplex: 'half'
		} as RequestInit);
		expect(await checkRequest(r, new URL(r.url))).toEqual({
			status: 400,
			message: 'The body could not be read: the connection ended before all of it arrived.',
			errors: { body: 'arrived incomplete' }
		});
	});
});

describe('compressed forms', () => {
	it('are refused as compressed, not read as if they were not', async () => {
		const r = new Request(`${ORIGIN}/sign/terms?/consent`, {
			method: 'POST',
			headers: {
				'content-type': 'application/x-www-form-urlencoded',
				'content-encoding': 'gzip'
			},
			body: 'consent=on'
		});
		expect(await checkRequest(r, new URL(r.url))).toEqual({
			status: 415,
			message: 'Send the form uncompressed.',
			errors: { 'content-encoding': 'gzip is not accepted here' }
		});
	});
});

describe('problem responses', () => {
	const problem = {
		status: 400 as const,
		message: 'Bad <input>',
		errors: { firstName: 'has a control character' }
	};

	it('answers the operator API in its JSON shape', async () => {
		const res = problemResponse(...request('/api/v1/x'), problem);
		expect(res.status).toBe(400);
		expect(await res.json()).toEqual({
			message: 'Bad <input>',
			errors: { firstName: ['has a control character'] }
		});
	});

	it('answers use:enhance with an ActionResult whose failure carries the field errors', async () => {
		const res = problemResponse(
			...request('/sign/sign?/accept', { accept: 'application/json' }),
			problem
		);
		expect(res.status).toBe(400);
		const body = (await res.json()) as { type: string; status: number; data: string };
		expect(body).toMatchObject({ type: 'failure', status: 400 });
		expect(devalue.parse(body.data)).toEqual({
			action: 'accept',
			message: problem.message,
			errors: problem.errors
		});
		const notFound = problemResponse(...request('/s/x?/valueOf', { accept: 'application/json' }), {
			...problem,
			status: 404
		});
		expect(await notFound.json()).toEqual({ type: 'error', error: { message: problem.message } });
	});

	it('answers use:enhance even when the refused field is called __proto__ (devalue refuses that key)', async () => {
		const refused = await check(
			'/sign/identity?/answer',
			urlencoded([
				['q-1', '1'],
				['__proto__', 'a\u0000b']
			])
		);
		expect(refused?.status).toBe(400);
		const res = problemResponse(
			...request('/sign/identity?/answer', { accept: 'application/json' }),
			refused!
		);
		expect(res.status).toBe(400);
		const result = (await res.json()) as { type: string; data: string };
		expect(result.type).toBe('failure');
		expect(devalue.parse(result.data)).toEqual({
			action: 'answer',
			message: refused!.message,
			errors: { '[__proto__]': expect.stringContaining('invisible control character') }
		});
	});

	it('answers a browser without script with an escaped page and a strict CSP', async () => {
		const res = problemResponse(...request('/sign/sign?/accept', { accept: 'text/html' }), problem);
		expect(res.headers.get('content-type')).toContain('text/html');
		expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
		const html = await res.text();
		expect(html).toContain('Bad &lt;input&gt;');
		expect(html).not.toContain('<input>');
		// The field as its label names it, not by the name the page gave it.
		expect(html).toContain('<li>First name: has a control character</li>');
		expect(html).not.toContain('firstName');
		expect(html).toContain('what you typed is still there');
		// The page the form was on, to open again: without the action, so a GET.
		expect(html).toContain('<a href="/sign/sign">Open the page again</a>');
		// Not an address typed by hand with an SSN in it.
		const typed = problemResponse(
			...request('/s/587-31-4926?/decline', { accept: 'text/html' }),
			problem
		);
		const page = await typed.text();
		expect(page).not.toContain('Open the page again');
		expect(page).not.toContain('4926');
		// Nor a link to another site, from a path that starts as one.
		for (const path of ['//evil.example/phish', '/\\evil.example/phish']) {
			const offsite = problemResponse(...request(path, { accept: 'text/html' }), problem);
			expect(await offsite.text()).toContain(
				'<a href="/evil.example/phish">Open the page again</a>'
			);
		}
	});

	it('names the signer’s rep as the step’s own page does, escaped, each way to reach them a link', async () => {
		const page = (contact: SigningContact) =>
			problemResponse(
				...request('/sign/terms?/decline', { accept: 'text/html' }),
				problem,
				contact
			).text();
		const rep = { name: 'Sam <Ortiz>', email: 'sam@office.example', phone: '(312) 555-0148' };
		const named = await page({ rep, inPerson: false });
		expect(named).toContain(
			'<p class="rep">Your sales representative: <strong>Sam &lt;Ortiz&gt;</strong><span>,</span> <a href="mailto:sam@office.example">sam@office.example</a><span>,</span> <a href="tel:+13125550148">(312) 555-0148</a></p>'
		);
		const office = await page({ rep: { ...rep, phone: null, office: true }, inPerson: false });
		expect(office).toContain('Reach your sales representative through your sales office: <strong>');
		expect(office).not.toContain('tel:');
		// On the rep's tablet the rep is beside the merchant: no mail or phone of theirs to open.
		const tablet = await page({ rep, inPerson: true });
		expect(tablet).toContain('the person from your sales office who handed you this device');
		expect(tablet).not.toContain('mailto:');
		expect(await page({ rep: null, inPerson: false })).toContain(
			'the person at your sales office who set up this application with you'
		);
		// Off a signing page (the console, /verify), no contact is given and none is shown.
		const noContact = await problemResponse(
			...request('/rep/password', { accept: 'text/html' }),
			problem
		).text();
		expect(noContact).not.toContain('class="rep"');
	});

	it('names an identity answer, a field it does not know, and a body too large, in words', async () => {
		const res = problemResponse(...request('/sign/identity?/answer', { accept: 'text/html' }), {
			status: 400,
			message: 'Refused.',
			errors: { 'q-7': 'has a control character', zzz: 'has a control character' }
		});
		const html = await res.text();
		expect(html).toContain('<li>An answer to an identity question: has a control character</li>');
		// A name no form of ours has is not echoed as if it were a field.
		expect(html).toContain('<li>has a control character</li>');
		expect(html).not.toContain('zzz');
		const tooLarge = problemResponse(...request('/verify', { accept: 'text/html' }), {
			status: 413,
			message: 'What was sent is larger than this portal takes.',
			errors: { form: 'The form, with any file in it, is larger than the portal’s limit.' }
		});
		expect(tooLarge.status).toBe(413);
		const page = await tooLarge.text();
		expect(page).toContain(
			'<li>The form, with any file in it, is larger than the portal’s limit.</li>'
		);
		expect(page).toContain(
			// The limit named, as the page states it (BODY_SIZE_LIMIT's default 512K, less a margin).
			'A file larger than 500 KB can’t be checked here, but the decision reference printed on it can'
		);
		expect(page).not.toContain('what you typed is still there');
		// A form without a file is not told to choose one.
		const formTooLarge = await problemResponse(
			...request('/sign/terms?/decline', { accept: 'text/html' }),
			{ status: 413, message: 'Too large.', errors: {} }
		).text();
		expect(formTooLarge).not.toContain('file');
		expect(formTooLarge).toContain('what you typed is still there');
	});

	it('says where a decline’s reason is before the sign step: in the disclosure Back shows closed', async () => {
		const refused: InputProblem = {
			status: 400,
			message: 'Refused.',
			errors: { reason: 'has a control character' }
		};
		const early = await problemResponse(
			...request('/sign/terms?/decline', { accept: 'text/html' }),
			refused
		).text();
		expect(early).toContain('<li>Reason: has a control character</li>');
		expect(early).toContain('what you typed is still there, under “I don’t want to sign”.');
		const signStep = await problemResponse(
			...request('/sign/sign?/decline', { accept: 'text/html' }),
			refused
		).text();
		expect(signStep).toContain(
			'what you typed is still there, but for your Social Security Number, which you type again.'
		);
		expect(signStep).not.toContain('I don’t want to sign');
	});
});
