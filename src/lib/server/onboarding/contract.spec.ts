import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandboxServer, type SandboxServer } from '../sandbox/testing';
import { createOnboardingClient, type OnboardingClient } from './client';
import { OnboardingError } from './errors';
import { exampleCreateRequest, exampleDecisionRequest } from './fixtures';
import { ACCEPTANCE_SECTIONS, type IdentityAnswerSet } from './schemas';

/**
 * The client against the embedded sandbox over real HTTP: all ten operations, the status-code
 * answers and every error form. The sandbox's control API (`{base}/_sandbox/...`) supplies the
 * right identity answers, injects faults and counts the requests that reached it.
 */

const OFFICE = 1207;
const AUTH = { authHeader: 'X-Api-Key', authValue: 'contract-test-key' };

let sandbox: SandboxServer;
let client: OnboardingClient;

beforeAll(async () => {
	sandbox = await startSandboxServer(AUTH);
	client = clientWith({});
});
afterAll(() => sandbox?.close());
beforeEach(() => controlCall('POST', '/reset'));

function clientWith(overrides: { authValue?: string; timeoutMs?: number }) {
	return createOnboardingClient({
		baseUrl: sandbox.baseUrl,
		...AUTH,
		timeoutMs: 3_000,
		log: false,
		retryDelaysMs: [5, 10],
		...overrides
	});
}

async function controlCall(method: string, path: string, body?: unknown): Promise<unknown> {
	const res = await fetch(`${sandbox.baseUrl}/_sandbox${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body)
	});
	if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status}`);
	return res.status === 204 ? undefined : res.json();
}

const fault = (operation: string, f: Record<string, unknown>) =>
	controlCall('PUT', `/faults/${operation}`, f);

/** How many finished calls of an operation reached the sandbox. */
async function callsTo(operation: string): Promise<number> {
	const list = (await controlCall('GET', `/requests?operation=${operation}`)) as unknown[];
	return list.length;
}

/** How many calls reached a path, counting calls still hanging (logged on arrival). */
async function callsAt(path: string): Promise<number> {
	const query = new URLSearchParams({ path }).toString();
	return ((await controlCall('GET', `/requests?${query}`)) as unknown[]).length;
}

async function failure(p: Promise<unknown>): Promise<OnboardingError> {
	const err = await p.then(
		() => undefined,
		(e: unknown) => e
	);
	expect(err).toBeInstanceOf(OnboardingError);
	return err as OnboardingError;
}

/** A fresh question set and its right answers, read from the sandbox. */
async function rightAnswers(applicationId: number): Promise<IdentityAnswerSet> {
	const set = await client.getQuestionSet(OFFICE, applicationId);
	const key = (await controlCall('GET', `/answers/${set.QuestionSetID}`)) as IdentityAnswerSet;
	return { ApplicationID: applicationId, QuestionSetID: set.QuestionSetID, Answers: key.Answers };
}

describe('reference data', () => {
	it('getAcceptanceLanguage: the five flags and their HTML', async () => {
		const lang = await client.getAcceptanceLanguage(OFFICE);
		for (const s of ACCEPTANCE_SECTIONS) {
			expect(typeof lang[s.flag]).toBe('boolean');
			if (lang[s.flag]) expect(lang[s.textField]).toEqual(expect.any(String));
		}
	});

	it('getAvailableEquipment and getPaymentMethods', async () => {
		const equipment = await client.getAvailableEquipment(OFFICE);
		expect(equipment.length).toBeGreaterThan(0);
		expect(equipment[0]?.Software[0]?.Versions[0]?.VersionID).toMatch(/^\d+$/);
		const methods = await client.getPaymentMethods(OFFICE);
		expect(methods).toContainEqual({ PaymentMethodID: 1, Name: 'Purchase' });
	});

	it('getSalesTaxRate: a known town, and 404 for an unknown one', async () => {
		const rate = await client.getSalesTaxRate(OFFICE, {
			city: 'Traverse City',
			state: 'MI',
			zip: '49684'
		});
		expect(rate).toMatchObject({ City: 'Traverse City', State: 'MI', Rate: 6 });
		const err = await failure(
			client.getSalesTaxRate(OFFICE, { city: 'Nowhere & Co', state: 'ZZ', zip: '00000' })
		);
		expect(err).toMatchObject({ kind: 'http', status: 404, form: 'message' });
	});
});

describe('applications', () => {
	it('listApplications: the seeded applications of the office', async () => {
		const list = await client.listApplications(OFFICE);
		expect(list.map((a) => a.ApplicationID)).toEqual(
			expect.arrayContaining([50001, 50002, 50003, 50004, 50005, 50006])
		);
		expect(list.find((a) => a.ApplicationID === 50001)).toMatchObject({
			DBA_Name: 'Blue Heron Bakery',
			Ownr1_Legal_Name_First: 'Dana',
			Ownr1_Legal_Name_Last: 'Whitfield'
		});
	});

	it('createApplication: assigned id and the seven observed differences', async () => {
		const sent = exampleCreateRequest();
		const app = await client.createApplication(OFFICE, sent);
		const terminal = app.EquipmentSetupForm.AssignedTerminals[0]!;
		expect(app.ApplicationID).toEqual(expect.any(Number));
		expect(app.OfficeNo).toBe(OFFICE);
		expect(app.SiteSurvey.Inspect_Office).toBe(OFFICE);
		expect(app.OtherFees).toBeNull();
		expect(app.BillingService).toBeNull();
		expect(app.EquipmentSetupForm.ESF_ShippingMethod).toBe(0);
		expect(terminal.AssignedSoftware.AssignedSoftwareID).toBe(4);
		expect(terminal.AssignedSoftware.AvailableSoftwareID).toBeNull();
		expect(terminal.PaymentMethod).toEqual({ PaymentMethodID: null, Name: null });
		expect(terminal.AssignedPeripherals).toEqual([]);
		expect(app.GatewayMerchants.GM_PmntGtwyVTerm_Mon_Fee).toBe(10);
		expect(terminal.AssignedTerminalID).toBeGreaterThan(0);
		expect(app.SiteSurvey).toHaveProperty('Inspect_Rep_Mgr');
		expect(app.ChargeCardNetwork.Net_Retail_CNP_Downgrade).toBe(0.5);
		expect(app.EquipmentSetupForm.Lease.LeasedTerminals).toEqual([]);
		const list = await client.listApplications(OFFICE);
		expect(list.map((a) => a.ApplicationID)).toContain(app.ApplicationID);
	});

	it('createApplication: 400 with ModelState naming each bad field, nothing stored', async () => {
		const bad = exampleCreateRequest() as unknown as Record<string, unknown>;
		bad.OfficeNo = 'twelve';
		delete bad.Profile;
		const before = (await client.listApplications(OFFICE)).length;
		const err = await failure(client.createApplication(OFFICE, bad as never));
		expect(err).toMatchObject({ kind: 'http', status: 400, form: 'model-state' });
		expect(Object.keys(err.fieldErrors)).toEqual(expect.arrayContaining(['OfficeNo', 'Profile']));
		expect((await client.listApplications(OFFICE)).length).toBe(before);
		expect(await callsTo('createapplication')).toBe(1);
	});

	it('getApplicationPdf: a PDF document, and 404 for an unknown application', async () => {
		const pdf = await client.getApplicationPdf(OFFICE, 50001);
		expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
		expect((await failure(client.getApplicationPdf(OFFICE, 59999))).status).toBe(404);
	});
});

describe('identity and decision', () => {
	it('verifies, records the decision, then refuses a second one (409)', async () => {
		const set = await client.getQuestionSet(OFFICE, 50001);
		expect(set.Questions.length).toBeGreaterThan(0);
		expect(await client.postAnswerSet(OFFICE, 50001, await rightAnswers(50001))).toEqual({
			verified: true
		});
		const result = await client.postMerchantDecision(OFFICE, 50001, exampleDecisionRequest());
		expect(result.kind).toBe('decision');
		if (result.kind !== 'decision') return;
		expect(result.decision).toMatchObject({ ApplicationID: 50001, IsAccepted: true });
		expect(result.decision.MerchantDecisionID).toEqual(expect.any(Number));
		expect(result.decision.AcceptanceLanguage).toBeNull();
		expect(result.decision).not.toHaveProperty('MerchantSSN');
		const again = await failure(
			client.postMerchantDecision(OFFICE, 50001, exampleDecisionRequest())
		);
		expect(again).toMatchObject({ status: 409, form: 'message' });
		// Identity is not checked twice.
		expect((await failure(client.getQuestionSet(OFFICE, 50001))).status).toBe(409);
	});

	it('410 for a question set answered twice', async () => {
		const answers = await rightAnswers(50002);
		await client.postAnswerSet(OFFICE, 50002, answers);
		expect(await client.postAnswerSet(OFFICE, 50002, answers)).toEqual({
			verified: false,
			reason: 'expired'
		});
	});

	it('422 when identity fails, then locked (423) after repeated failures', async () => {
		const failed = { verified: false, reason: 'failed' };
		expect(await client.postAnswerSet(OFFICE, 50005, await rightAnswers(50005))).toEqual(failed);
		const second = await rightAnswers(50005);
		expect(await client.postAnswerSet(OFFICE, 50005, second)).toEqual(failed);
		expect((await failure(client.getQuestionSet(OFFICE, 50005))).status).toBe(423);
		expect(await client.postAnswerSet(OFFICE, 50005, second)).toEqual({
			verified: false,
			reason: 'locked'
		});
	});

	it('400 with ModelState for a malformed answer set', async () => {
		const { QuestionSetID } = await client.getQuestionSet(OFFICE, 50001);
		const err = await failure(
			client.postAnswerSet(OFFICE, 50001, { ApplicationID: 50001, QuestionSetID, Answers: [] })
		);
		expect(err).toMatchObject({ status: 400, form: 'model-state' });
		expect(err.fieldErrors).toHaveProperty('Answers');
	});

	it('503 from the bureau: the GET question set is retried twice, then fails', async () => {
		const err = await failure(client.getQuestionSet(OFFICE, 50006));
		expect(err).toMatchObject({ kind: 'http', status: 503 });
		expect(await callsTo('questionset')).toBe(3);
	});

	it('404 for an unknown application', async () => {
		expect((await failure(client.getQuestionSet(OFFICE, 59999))).status).toBe(404);
	});

	it('decision: 403 before identity is verified, 409 when already decided', async () => {
		const unverified = await failure(
			client.postMerchantDecision(OFFICE, 50002, exampleDecisionRequest(50002))
		);
		expect(unverified).toMatchObject({ status: 403, form: 'message' });
		const decided = await failure(
			client.postMerchantDecision(OFFICE, 50004, exampleDecisionRequest(50004))
		);
		expect(decided.status).toBe(409);
	});

	it('decision: 400 with ModelState naming a bad SSN', async () => {
		const body = { ...exampleDecisionRequest(50001), MerchantSSN: '12345' };
		const err = await failure(client.postMerchantDecision(OFFICE, 50001, body));
		expect(err).toMatchObject({ status: 400, form: 'model-state' });
		expect(err.fieldErrors).toHaveProperty('MerchantSSN');
		expect(err.message).not.toContain('12345');
	});

	it('decision: a 200 text message is a message', async () => {
		await fault('merchantdecision', {
			status: 200,
			body: 'Decision recorded.',
			contentType: 'text/plain'
		});
		await expect(
			client.postMerchantDecision(OFFICE, 50001, exampleDecisionRequest())
		).resolves.toEqual({ kind: 'message', message: 'Decision recorded.' });
	});
});

describe('error forms, faults and transport', () => {
	it('401 without the credential', async () => {
		const anonymous = clientWith({ authValue: undefined });
		const err = await failure(anonymous.getPaymentMethods(OFFICE));
		expect(err).toMatchObject({ kind: 'http', status: 401 });
	});

	it.each([
		['JSON { Message }', {}, 'message'],
		['plain text', { body: 'Internal failure at node 7', contentType: 'text/plain' }, 'text'],
		['an empty body', { body: '' }, 'empty']
	])('reads %s', async (_name, extra, form) => {
		await fault('paymentmethod', { status: 500, ...extra });
		const err = await failure(client.getPaymentMethods(OFFICE));
		expect(err).toMatchObject({ kind: 'http', status: 500, form });
		expect(err.message).not.toContain('node 7');
		expect(await callsTo('paymentmethod')).toBe(1);
	});

	it('retries a GET on 503 at most twice; never retries a POST', async () => {
		await fault('availableequipment', { status: 503 });
		await fault('createapplication', { status: 503 });
		expect((await failure(client.getAvailableEquipment(OFFICE))).status).toBe(503);
		expect((await failure(client.createApplication(OFFICE, exampleCreateRequest()))).status).toBe(
			503
		);
		expect(await callsTo('availableequipment')).toBe(3);
		expect(await callsTo('createapplication')).toBe(1);
	});

	it('times out on a hung call, without retrying', async () => {
		await fault('acceptancelanguage', { hang: true });
		const impatient = clientWith({ timeoutMs: 200 });
		const started = Date.now();
		const err = await failure(impatient.getAcceptanceLanguage(OFFICE));
		expect(err).toMatchObject({ kind: 'timeout', status: 0 });
		expect(Date.now() - started).toBeLessThan(2_000);
		expect(await callsAt(`/api/office/${OFFICE}/acceptancelanguage`)).toBe(1);
	});

	it('times out on a slow call', async () => {
		await fault('salestaxrate', { latencyMs: 1_000 });
		const impatient = clientWith({ timeoutMs: 200 });
		const err = await failure(
			impatient.getSalesTaxRate(OFFICE, { city: 'Springfield', state: 'IL', zip: '62701' })
		);
		expect(err.kind).toBe('timeout');
	});

	it('names the field of a response that does not match the schema', async () => {
		await fault('paymentmethod', {
			status: 200,
			body: JSON.stringify([{ PaymentMethodID: 1, Name: 'Purchase' }, { PaymentMethodID: 2 }]),
			contentType: 'application/json'
		});
		const err = await failure(client.getPaymentMethods(OFFICE));
		expect(err).toMatchObject({ kind: 'schema', fieldPath: '1.Name' });
	});

	it('rejects a PDF response that is not a PDF', async () => {
		await fault('pdf', { status: 200, body: '<html>oops</html>', contentType: 'text/html' });
		const err = await failure(client.getApplicationPdf(OFFICE, 50001));
		expect(err).toMatchObject({ kind: 'schema', fieldPath: '(body)' });
	});
});
