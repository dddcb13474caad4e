import * as v from 'valibot';
import type { Tx } from '../db';
import { ApplicationCreateRequestSchema } from '../onboarding/schemas';
import { submittedExtras, terminalCount, toResponse } from './application/create';
import { getApplication, insertApplication } from './application/store';
import { findDecision, recordDecision } from './decisions';
import { insertQuestionSet } from './identity/store';
import { generateQuestions } from './identity/questions';
import {
	DEMO_APPLICATIONS,
	DEMO_DECISION_50004,
	DEMO_OFFICE,
	type DemoApplication
} from './seed-data';
import { nextId } from './store';

type Obj = Record<string, unknown>;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Parses a demo request with the client's request schema, exactly as a create would. The schema
 * admits only null season dates (the document saw nothing else), but the seasonal demo merchant
 * has them: they are set aside for the parse and put back.
 */
function parseDemo(demo: DemoApplication): Obj {
	const request = demo.request;
	const profile = request.Profile as Obj;
	const season = {
		Merch_Type_Season_Start: profile.Merch_Type_Season_Start ?? null,
		Merch_Type_Season_End: profile.Merch_Type_Season_End ?? null
	};
	const parsed = v.parse(ApplicationCreateRequestSchema, {
		...request,
		Profile: { ...profile, Merch_Type_Season_Start: null, Merch_Type_Season_End: null }
	}) as Obj;
	return { ...parsed, Profile: { ...(parsed.Profile as Obj), ...season } };
}

/**
 * Inserts the demo data where it is missing; running it again changes nothing. 50004 gets a
 * passed identity check and a decision on record.
 */
export async function seedDemoData(tx: Tx, now: Date, ssnKey: Buffer): Promise<void> {
	for (const demo of DEMO_APPLICATIONS) {
		if (await getApplication(tx, DEMO_OFFICE, demo.id)) continue;
		const request = parseDemo(demo);
		const terminalIds: number[] = [];
		for (let i = 0; i < terminalCount(request); i++) terminalIds.push(await nextId(tx, 'terminal'));
		await insertApplication(tx, {
			id: demo.id,
			officeId: DEMO_OFFICE,
			scenario: demo.scenario,
			document: toResponse(request, demo.id, terminalIds),
			submitted: submittedExtras(request),
			createdAt: new Date(now.getTime() - demo.ageDays * DAY_MS)
		});
	}
	await seedDecided(tx, now, ssnKey);
}

/**
 * A fresh copy of the first demo application (50001, the Blue Heron Bakery) under a new id, for a
 * demo that has used the seeded ones up: "Start a demo signing" on the home page. Its trading
 * name carries the id, so the rep console tells the copies apart.
 */
export async function addDemoApplication(
	tx: Tx,
	now: Date
): Promise<{ id: number; business: string }> {
	const request = parseDemo(DEMO_APPLICATIONS[0]!);
	const id = await nextId(tx, 'demo');
	const names = request.BusinessNames as Obj;
	const business = `${String(names.DBA_Name)} ${id}`;
	const copy = { ...request, BusinessNames: { ...names, DBA_Name: business } };
	const terminalIds: number[] = [];
	for (let i = 0; i < terminalCount(copy); i++) terminalIds.push(await nextId(tx, 'terminal'));
	await insertApplication(tx, {
		id,
		officeId: DEMO_OFFICE,
		document: toResponse(copy, id, terminalIds),
		submitted: submittedExtras(copy),
		createdAt: now
	});
	return { id, business };
}

async function seedDecided(tx: Tx, now: Date, ssnKey: Buffer) {
	const id = DEMO_DECISION_50004.ApplicationID;
	const app = await getApplication(tx, DEMO_OFFICE, id);
	if (!app) return;
	const verifiedAt = new Date(now.getTime() - 2 * DAY_MS);
	const { questions, answers } = generateQuestions(app.document);
	await insertQuestionSet(tx, {
		id: `seed-${id}-verified`,
		officeId: DEMO_OFFICE,
		applicationId: id,
		questions,
		answers,
		createdAt: verifiedAt,
		expiresAt: new Date(verifiedAt.getTime() + 120_000),
		answeredAt: new Date(verifiedAt.getTime() + 45_000),
		outcome: 'passed'
	});
	if (!(await findDecision(tx, id, DEMO_OFFICE))) {
		await recordDecision(
			tx,
			DEMO_OFFICE,
			id,
			{ ...DEMO_DECISION_50004 },
			new Date(verifiedAt.getTime() + 90_000),
			ssnKey
		);
	}
}
