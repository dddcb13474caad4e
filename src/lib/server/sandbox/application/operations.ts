import { getApplication, insertApplication, listApplications, toListItem } from './store';
import { checkCreateRequest, submittedExtras, terminalCount, toResponse } from './create';
import { invalid, json, message, readJson } from '../http';
import type { Handler } from '../router';
import { nextId } from '../store';

/** POST application: validates, assigns ids, stores, answers in the response form. */
export const createApplication: Handler = async ({ db, request, officeId, now }) => {
	const body = await readJson(request, 'application');
	if (!body.ok) return body.response;
	const checked = checkCreateRequest(body.value, officeId);
	if (!checked.ok) return invalid(checked.modelState);
	const req = checked.request;
	const document = await db.transaction(async (tx) => {
		const id = await nextId(tx, 'application');
		const terminalIds: number[] = [];
		for (let i = 0; i < terminalCount(req); i++) terminalIds.push(await nextId(tx, 'terminal'));
		const doc = toResponse(req, id, terminalIds);
		await insertApplication(tx, {
			id,
			officeId,
			document: doc,
			submitted: submittedExtras(req),
			createdAt: now
		});
		return doc;
	});
	return json(document);
};

/** GET application/: the office's applications, oldest first. */
export const listOfficeApplications: Handler = async ({ db, officeId, timeZone }) => {
	const rows = await listApplications(db, officeId);
	return json(rows.map((row) => toListItem(row, timeZone)));
};

/** GET pdf/{applicationid}. */
export const applicationPdf: Handler = async ({ db, officeId, applicationId, now, timeZone }) => {
	const app = await getApplication(db, officeId, applicationId);
	if (!app)
		return message(404, `Application ${applicationId} was not found in office ${officeId}.`);
	// pdf-lib loads with the first PDF, not with the portal's start-up.
	const { renderApplicationPdf } = await import('../pdf');
	const bytes = await renderApplicationPdf(app, now, timeZone);
	return new Response(bytes as BodyInit, {
		status: 200,
		headers: {
			'content-type': 'application/pdf',
			'content-length': String(bytes.byteLength),
			'content-disposition': `inline; filename="application-${applicationId}.pdf"`
		}
	});
};
