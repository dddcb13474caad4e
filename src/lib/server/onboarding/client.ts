import * as v from 'valibot';
import type { Config } from '$lib/server/config/config';
import { OnboardingError } from './errors';
import {
	ANSWER_SET_REFUSALS,
	AcceptanceLanguageSchema,
	ApplicationListSchema,
	ApplicationResponseSchema,
	AvailableEquipmentListSchema,
	IdentityAnswerSetSchema,
	IdentityQuestionSetSchema,
	MerchantDecisionResponseSchema,
	PaymentMethodListSchema,
	SalesTaxRateSchema,
	type AnswerSetRefusal,
	type ApplicationCreateRequest,
	type IdentityAnswerSet,
	type MerchantDecision,
	type MerchantDecisionRequest
} from './schemas';
import { parseJsonText, parseWith, readJson, send, type TransportOptions } from './send';

export type OnboardingClientOptions = TransportOptions;

export type AnswerSetResult = { verified: true } | { verified: false; reason: AnswerSetRefusal };

export type DecisionResult =
	{ kind: 'decision'; decision: MerchantDecision } | { kind: 'message'; message: string };

export interface SalesTaxQuery {
	city: string;
	state: string;
	zip: string;
}

const OFFICE = '/api/office/{officeid}';
/** A success message is stored and shown to staff; a longer body is not a message. */
const MAX_MESSAGE_CHARS = 1000;

/** The typed client of the Merchant Onboarding Service: one function per operation. */
export function createOnboardingClient(options: OnboardingClientOptions) {
	const get = <T>(operation: string, path: string, params: Params, read: Read<T>) =>
		send(options, { operation, method: 'GET', path: OFFICE + path, params, read });

	return {
		getAcceptanceLanguage: async (officeId: number) =>
			get('getAcceptanceLanguage', '/acceptancelanguage', ids(officeId), (res) =>
				readJson(res, AcceptanceLanguageSchema, 'getAcceptanceLanguage')
			),

		createApplication: async (officeId: number, app: ApplicationCreateRequest) =>
			send(options, {
				operation: 'createApplication',
				method: 'POST',
				path: `${OFFICE}/application`,
				params: ids(officeId),
				body: app,
				read: (res) => readJson(res, ApplicationResponseSchema, 'createApplication')
			}),

		// The trailing slash is the document's path, kept verbatim.
		listApplications: async (officeId: number) =>
			get('listApplications', '/application/', ids(officeId), (res) =>
				readJson(res, ApplicationListSchema, 'listApplications')
			),

		getAvailableEquipment: async (officeId: number) =>
			get('getAvailableEquipment', '/availableequipment', ids(officeId), (res) =>
				readJson(res, AvailableEquipmentListSchema, 'getAvailableEquipment')
			),

		getQuestionSet: async (officeId: number, applicationId: number) =>
			get('getQuestionSet', '/questionset/{applicationid}', ids(officeId, applicationId), (res) =>
				readJson(res, IdentityQuestionSetSchema, 'getQuestionSet')
			),

		postAnswerSet: async (officeId: number, applicationId: number, answers: IdentityAnswerSet) =>
			send<AnswerSetResult>(options, {
				operation: 'postAnswerSet',
				method: 'POST',
				path: `${OFFICE}/answerset/{applicationid}`,
				params: ids(officeId, applicationId),
				body: normaliseAnswers(answers),
				answerStatuses: Object.keys(ANSWER_SET_REFUSALS).map(Number),
				read: (res) => readAnswer(res)
			}),

		postMerchantDecision: async (
			officeId: number,
			applicationId: number,
			body: MerchantDecisionRequest
		) => {
			// Rule 2 of the document: the body's ApplicationID and the path's are the same one.
			if (body.ApplicationID !== applicationId) {
				throw new TypeError('MerchantDecision ApplicationID differs from the path');
			}
			return send<DecisionResult>(options, {
				operation: 'postMerchantDecision',
				method: 'POST',
				path: `${OFFICE}/merchantdecision/{applicationid}`,
				params: ids(officeId, applicationId),
				body,
				read: (res) => readDecision(res)
			});
		},

		getPaymentMethods: async (officeId: number) =>
			get('getPaymentMethods', '/paymentmethod', ids(officeId), (res) =>
				readJson(res, PaymentMethodListSchema, 'getPaymentMethods')
			),

		getApplicationPdf: async (officeId: number, applicationId: number) =>
			send(options, {
				operation: 'getApplicationPdf',
				method: 'GET',
				path: `${OFFICE}/pdf/{applicationid}`,
				params: ids(officeId, applicationId),
				accept: 'application/pdf',
				read: (res) => readPdf(res)
			}),

		getSalesTaxRate: async (officeId: number, where: SalesTaxQuery) =>
			send(options, {
				operation: 'getSalesTaxRate',
				method: 'GET',
				path: `${OFFICE}/salestaxrate`,
				params: ids(officeId),
				query: { city: where.city, state: where.state, zip: where.zip },
				read: (res) => readJson(res, SalesTaxRateSchema, 'getSalesTaxRate')
			})
	};
}

export type OnboardingClient = ReturnType<typeof createOnboardingClient>;

type Params = Record<string, number>;
type Read<T> = (res: Response) => Promise<T>;

function ids(officeId: number, applicationId?: number): Params {
	checkId('officeId', officeId);
	if (applicationId === undefined) return { officeid: officeId };
	checkId('applicationId', applicationId);
	return { officeid: officeId, applicationid: applicationId };
}

function checkId(name: string, value: number) {
	if (!Number.isSafeInteger(value) || value <= 0) {
		throw new TypeError(`${name} must be a positive integer`);
	}
}

/**
 * The schema's output carries numeric ids however the question set spelled them. A body that
 * does not parse goes as it is, so that the service, not the client, says what is wrong.
 */
function normaliseAnswers(answers: IdentityAnswerSet) {
	const parsed = v.safeParse(IdentityAnswerSetSchema, answers);
	return parsed.success ? parsed.output : answers;
}

async function readAnswer(res: Response): Promise<AnswerSetResult> {
	await res.body?.cancel();
	if (res.status === 200 || res.status === 204) return { verified: true };
	const reason = ANSWER_SET_REFUSALS[res.status as keyof typeof ANSWER_SET_REFUSALS];
	if (reason) return { verified: false, reason };
	throw new OnboardingError({ kind: 'http', operation: 'postAnswerSet', status: res.status });
}

/**
 * The document promises "a success/failure message" and showed a MerchantDecision object.
 * [assumed] A JSON object with MerchantDecisionID is the decision; a JSON string, a `{ Message }`
 * object or plain text is the message, for the caller to keep as it is.
 */
async function readDecision(res: Response): Promise<DecisionResult> {
	const operation = 'postMerchantDecision';
	const text = await res.text();
	const type = res.headers.get('content-type') ?? '';
	const looksJson = type.includes('json') || /^\s*[{["]/.test(text);
	if (!looksJson) return { kind: 'message', message: clip(text) };
	const data = parseJsonText(text, operation);
	if (typeof data === 'string') return { kind: 'message', message: clip(data) };
	if (isMessageOnly(data)) return { kind: 'message', message: clip(data.Message) };
	return { kind: 'decision', decision: parseWith(MerchantDecisionResponseSchema, operation, data) };
}

function isMessageOnly(data: unknown): data is { Message: string } {
	if (typeof data !== 'object' || data === null) return false;
	const record = data as Record<string, unknown>;
	return typeof record.Message === 'string' && !('MerchantDecisionID' in record);
}

const clip = (s: string) => s.trim().slice(0, MAX_MESSAGE_CHARS);

async function readPdf(res: Response): Promise<Uint8Array> {
	const bytes = new Uint8Array(await res.arrayBuffer());
	// The magic number decides, not the content type: some servers label PDFs octet-stream.
	const magic = new TextDecoder().decode(bytes.subarray(0, 5));
	if (magic !== '%PDF-') {
		throw new OnboardingError({
			kind: 'schema',
			operation: 'getApplicationPdf',
			fieldPath: '(body)',
			fieldErrors: { '(body)': ['expected a PDF document'] }
		});
	}
	return bytes;
}

/** The client as the portal's settings describe it (the portal's start, the reps tool's checks). */
export const onboardingClientFor = (
	config: Pick<
		Config,
		| 'onboardingBaseUrl'
		| 'ONBOARDING_AUTH_HEADER'
		| 'ONBOARDING_AUTH_VALUE'
		| 'ONBOARDING_TIMEOUT_MS'
	>
): OnboardingClient =>
	createOnboardingClient({
		baseUrl: config.onboardingBaseUrl,
		authHeader: config.ONBOARDING_AUTH_HEADER,
		authValue: config.ONBOARDING_AUTH_VALUE,
		timeoutMs: config.ONBOARDING_TIMEOUT_MS
	});
