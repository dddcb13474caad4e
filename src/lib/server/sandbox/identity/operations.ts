import { randomBytes } from 'node:crypto';
import { IdentityAnswerSetSchema } from '../../onboarding/schemas';
import { getApplication, type StoredApplication } from '../application/store';
import { addError, empty, invalid, json, message, readJson } from '../http';
import { check } from '../modelstate';
import type { Handler } from '../router';
import { getSettings } from '../store';
import { PASS_MARK, countCorrect, generateQuestions } from './questions';
import { getQuestionSet, insertQuestionSet, isLocked, isVerified, settle } from './store';

const notFound = (officeId: number, applicationId: number) =>
	message(404, `Application ${applicationId} was not found in office ${officeId}.`);
const locked = () => message(423, 'Too many failed identity attempts: try again after 24 hours.');
const bureauDown = () =>
	message(503, 'The credit bureau is not available at the moment. Please try again later.');

const bureauIsDown = (app: StoredApplication) => app.scenario === 'bureau_unavailable';

/** GET questionset/{applicationid}: a fresh set every time. */
export const questionSet: Handler = async ({ db, officeId, applicationId, now }) => {
	const app = await getApplication(db, officeId, applicationId);
	if (!app) return notFound(officeId, applicationId);
	if (await isVerified(db, officeId, applicationId)) {
		return message(409, 'The identity for this application is already verified.');
	}
	if (await isLocked(db, officeId, applicationId, now)) return locked();
	if (bureauIsDown(app)) return bureauDown();

	const { timeLimitSeconds } = await getSettings(db);
	const { questions, answers } = generateQuestions(app.document);
	const id = randomBytes(8).toString('hex');
	await insertQuestionSet(db, {
		id,
		officeId,
		applicationId,
		questions,
		answers,
		createdAt: now,
		expiresAt: new Date(now.getTime() + timeLimitSeconds * 1000)
	});
	return json({
		ApplicationID: applicationId,
		QuestionSetID: id,
		TimeLimitSeconds: timeLimitSeconds,
		Questions: questions
	});
};

/**
 * POST answerset/{applicationid}: a status code only. 200 verified; 422 not verified (a failed
 * attempt); 410 the set is unknown, already answered, or answered after its limit (which also
 * counts as a failed attempt); 423 locked after two failed attempts in 24 hours.
 */
export const answerSet: Handler = async ({ db, request, officeId, applicationId, now }) => {
	const body = await readJson(request, 'answerSet');
	if (!body.ok) return body.response;
	const { output, modelState } = check(IdentityAnswerSetSchema, body.value);
	if (output && output.ApplicationID !== applicationId) {
		addError(modelState, 'ApplicationID', 'ApplicationID must be the application in the path.');
	}
	if (!output || Object.keys(modelState).length > 0) return invalid(modelState);

	const app = await getApplication(db, officeId, applicationId);
	if (!app) return notFound(officeId, applicationId);
	if (bureauIsDown(app)) return bureauDown();
	if (await isLocked(db, officeId, applicationId, now)) return locked();

	const gone = () => message(410, 'That question set has expired or was already answered.');
	// Once verified, any other open set is void: identity is not checked twice.
	if (await isVerified(db, officeId, applicationId)) return gone();
	const set = await getQuestionSet(db, output.QuestionSetID);
	if (!set || set.officeId !== officeId || set.applicationId !== applicationId) return gone();
	if (set.answeredAt) return gone();
	if (now.getTime() > set.expiresAt.getTime()) {
		await settle(db, set.id, 'late', now);
		return gone();
	}
	const passed =
		app.scenario !== 'identity_fails' && countCorrect(set.answers, output.Answers) >= PASS_MARK;
	if (!(await settle(db, set.id, passed ? 'passed' : 'failed', now))) return gone();
	return passed ? empty(200) : message(422, 'The answers could not be verified.');
};
