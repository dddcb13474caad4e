import { afterEach, describe, expect, it } from 'vitest';
import { createOnboardingClient, type OnboardingClient } from './client';
import { OnboardingError } from './errors';
import {
	exampleAcceptanceLanguage,
	exampleCreateRequest,
	exampleCreateResponse,
	exampleDecisionRequest,
	exampleDecisionResponse
} from './fixtures';
import { json, startTestServer, text, type Handler, type SeenRequest } from './test-server';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
	await close?.();
	close = undefined;
});

async function serve(handler: Handler): Promise<{ client: OnboardingClient; seen: SeenRequest[] }> {
	const server = await startTestServer(handler);
	close = server.close;
	const client = createOnboardingClient({
		baseUrl: `${server.baseUrl}/sandbox`,
		timeoutMs: 2_000,
		log: false,
		retryDelaysMs: [5, 10]
	});
	return { client, seen: server.seen };
}

const questionSet = {
	ApplicationID: 50001,
	QuestionSetID: 'abc123',
	Questions: [{ QuestionID: '1', Prompt: 'Street?', Choices: [{ ChoiceID: '3', Text: 'ELM ST' }] }]
};

describe('client: one function per operation, at the document paths', () => {
	it('getAcceptanceLanguage', async () => {
		const { client, seen } = await serve((_r, res) => json(res, 200, exampleAcceptanceLanguage()));
		const out = await client.getAcceptanceLanguage(1207);
		expect(out.Accept_SeasonalAddendum_Prod).toBe(false);
		expect(seen[0]).toMatchObject({
			method: 'GET',
			url: '/sandbox/api/office/1207/acceptancelanguage'
		});
		expect(seen[0]?.headers.accept).toBe('application/json');
	});

	it('createApplication posts the body and reads the assigned id', async () => {
		const { client, seen } = await serve((_r, res) => json(res, 200, exampleCreateResponse(50077)));
		const out = await client.createApplication(1207, exampleCreateRequest());
		expect(out.ApplicationID).toBe(50077);
		expect(seen[0]).toMatchObject({ method: 'POST', url: '/sandbox/api/office/1207/application' });
		expect(JSON.parse(seen[0]?.body ?? '')).toEqual(exampleCreateRequest());
	});

	it('listApplications keeps the trailing slash', async () => {
		const { client, seen } = await serve((_r, res) => json(res, 200, []));
		await expect(client.listApplications(1207)).resolves.toEqual([]);
		expect(seen[0]?.url).toBe('/sandbox/api/office/1207/application/');
	});

	it('getAvailableEquipment', async () => {
		const item = { AvailableTerminalID: '12', DisplayName: 'T2', Price: 299, Software: [] };
		const { client, seen } = await serve((_r, res) => json(res, 200, [item]));
		expect((await client.getAvailableEquipment(1207))[0]?.AvailableTerminalID).toBe(12);
		expect(seen[0]?.url).toBe('/sandbox/api/office/1207/availableequipment');
	});

	it('getQuestionSet', async () => {
		const { client, seen } = await serve((_r, res) => json(res, 200, questionSet));
		const out = await client.getQuestionSet(1207, 50001);
		expect(out.Questions[0]?.Choices[0]?.ChoiceID).toBe(3);
		expect(seen[0]?.url).toBe('/sandbox/api/office/1207/questionset/50001');
	});

	it('postAnswerSet posts numeric ids', async () => {
		const { client, seen } = await serve((_r, res) => {
			res.writeHead(204);
			res.end();
		});
		const out = await client.postAnswerSet(1207, 50001, {
			ApplicationID: 50001,
			QuestionSetID: 'abc123',
			Answers: [{ QuestionID: '1', ChoiceID: '3' }]
		});
		expect(out).toEqual({ verified: true });
		expect(seen[0]).toMatchObject({
			method: 'POST',
			url: '/sandbox/api/office/1207/answerset/50001'
		});
		expect(JSON.parse(seen[0]?.body ?? '')).toEqual({
			ApplicationID: 50001,
			QuestionSetID: 'abc123',
			Answers: [{ QuestionID: 1, ChoiceID: 3 }]
		});
	});

	it('postMerchantDecision', async () => {
		const { client, seen } = await serve((_r, res) => json(res, 200, exampleDecisionResponse()));
		const out = await client.postMerchantDecision(1207, 50001, exampleDecisionRequest());
		expect(out.kind).toBe('decision');
		expect(out.kind === 'decision' && out.decision.MerchantDecisionID).toBe(70001);
		expect(seen[0]).toMatchObject({
			method: 'POST',
			url: '/sandbox/api/office/1207/merchantdecision/50001'
		});
	});

	it('getPaymentMethods', async () => {
		const { client, seen } = await serve((_r, res) =>
			json(res, 200, [{ PaymentMethodID: 1, Name: 'Purchase' }])
		);
		await expect(client.getPaymentMethods(1207)).resolves.toEqual([
			{ PaymentMethodID: 1, Name: 'Purchase' }
		]);
		expect(seen[0]?.url).toBe('/sandbox/api/office/1207/paymentmethod');
	});

	it('getApplicationPdf returns the bytes', async () => {
		const pdf = Buffer.from('%PDF-1.7\n%fake\n');
		const { client, seen } = await serve((_r, res) => {
			res.writeHead(200, { 'Content-Type': 'application/pdf' });
			res.end(pdf);
		});
		const out = await client.getApplicationPdf(1207, 50001);
		expect(out).toBeInstanceOf(Uint8Array);
		expect(Buffer.from(out).equals(pdf)).toBe(true);
		expect(seen[0]?.url).toBe('/sandbox/api/office/1207/pdf/50001');
		expect(seen[0]?.headers.accept).toBe('application/pdf');
	});

	it('getSalesTaxRate encodes the query', async () => {
		const rate = { City: "Coeur d'Alene", State: 'ID', Zip: '83814', Rate: '6.0' };
		const { client, seen } = await serve((_r, res) => json(res, 200, rate));
		const out = await client.getSalesTaxRate(1207, {
			city: "Coeur d'Alene",
			state: 'ID',
			zip: '83814'
		});
		expect(out.Rate).toBe(6);
		expect(seen[0]?.url).toBe(
			'/sandbox/api/office/1207/salestaxrate?city=Coeur+d%27Alene&state=ID&zip=83814'
		);
	});
});

describe('client: postAnswerSet answers with a status code only', () => {
	it.each([
		[200, { verified: true }],
		[204, { verified: true }],
		[422, { verified: false, reason: 'failed' }],
		[410, { verified: false, reason: 'expired' }],
		[423, { verified: false, reason: 'locked' }]
	])('%i', async (status, expected) => {
		const { client } = await serve((_r, res) => {
			res.writeHead(status);
			res.end();
		});
		const answers = { ApplicationID: 50001, QuestionSetID: 'x', Answers: [] };
		await expect(client.postAnswerSet(1207, 50001, answers)).resolves.toEqual(expected);
	});

	it.each([400, 404, 503])('throws on %i, without retrying', async (status) => {
		const { client, seen } = await serve((_r, res) =>
			json(res, status, { Message: 'The request is invalid.', ModelState: { Answers: ['bad'] } })
		);
		const answers = { ApplicationID: 50001, QuestionSetID: 'x', Answers: [] };
		await expect(client.postAnswerSet(1207, 50001, answers)).rejects.toMatchObject({
			kind: 'http',
			status,
			fieldErrors: { Answers: ['bad'] }
		});
		expect(seen).toHaveLength(1);
	});
});

describe('client: postMerchantDecision answers with a decision or a message', () => {
	it('reads a plain-text success message', async () => {
		const { client } = await serve((_r, res) => text(res, 200, ' Decision recorded. '));
		await expect(
			client.postMerchantDecision(1207, 50001, exampleDecisionRequest())
		).resolves.toEqual({ kind: 'message', message: 'Decision recorded.' });
	});

	it('reads a JSON string or a { Message } object as a message', async () => {
		const bodies = ['Success', { Message: 'Saved' }];
		const { client } = await serve((_r, res, n) => json(res, 200, bodies[n - 1]));
		const body = exampleDecisionRequest();
		await expect(client.postMerchantDecision(1207, 50001, body)).resolves.toEqual({
			kind: 'message',
			message: 'Success'
		});
		await expect(client.postMerchantDecision(1207, 50001, body)).resolves.toEqual({
			kind: 'message',
			message: 'Saved'
		});
	});

	it('names the field of a decision object that does not match', async () => {
		const { client } = await serve((_r, res) =>
			json(res, 200, { ...exampleDecisionResponse(), IsAccepted: 'yes' })
		);
		await expect(
			client.postMerchantDecision(1207, 50001, exampleDecisionRequest())
		).rejects.toMatchObject({ kind: 'schema', fieldPath: 'IsAccepted' });
	});

	it('refuses a body whose ApplicationID differs from the path, before any request', async () => {
		const { client, seen } = await serve((_r, res) => json(res, 200, {}));
		await expect(
			client.postMerchantDecision(1207, 50002, exampleDecisionRequest(50001))
		).rejects.toBeInstanceOf(TypeError);
		expect(seen).toHaveLength(0);
	});

	it('maps a 409 to an OnboardingError without retrying the POST', async () => {
		const { client, seen } = await serve((_r, res) =>
			json(res, 409, { Message: 'A decision is already recorded.' })
		);
		const err = await client
			.postMerchantDecision(1207, 50001, exampleDecisionRequest())
			.catch((e: unknown) => e);
		expect(err).toBeInstanceOf(OnboardingError);
		expect(err).toMatchObject({ status: 409, form: 'message' });
		expect(seen).toHaveLength(1);
	});
});

describe('client: guards', () => {
	it('rejects a PDF response that is not a PDF', async () => {
		const { client } = await serve((_r, res) => {
			res.writeHead(200, { 'Content-Type': 'application/pdf' });
			res.end('<html>error</html>');
		});
		await expect(client.getApplicationPdf(1207, 50001)).rejects.toMatchObject({
			kind: 'schema',
			fieldPath: '(body)'
		});
	});

	it('rejects ids that are not positive integers, before any request', async () => {
		const { client, seen } = await serve((_r, res) => json(res, 200, []));
		await expect(client.listApplications(0)).rejects.toBeInstanceOf(TypeError);
		await expect(client.getQuestionSet(1207, 1.5)).rejects.toBeInstanceOf(TypeError);
		expect(seen).toHaveLength(0);
	});
});
