import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '../../db';
import {
	sandboxApplications,
	sandboxDecisions,
	type SandboxScenario,
	type SandboxSsnDigest
} from '../../db/schema';
import { ssnLast4 } from '../ssn';

type Obj = Record<string, unknown>;

export type StoredApplication = typeof sandboxApplications.$inferSelect;

export interface NewApplication {
	id: number;
	officeId: number;
	scenario?: SandboxScenario;
	/** The response form, SSNs included: they are taken out here, before anything is stored. */
	document: Obj;
	/** Groups the response drops but the PDF shows. */
	submitted: Obj;
	createdAt: Date;
}

/** Stores an application unless one with that id exists; true when it was inserted. */
export async function insertApplication(tx: Tx, app: NewApplication): Promise<boolean> {
	const owner = { ...(app.document.OwnerOfficer as Obj) };
	const ownerSsns: { Ownr1?: SandboxSsnDigest; Ownr2?: SandboxSsnDigest } = {};
	for (const n of ['Ownr1', 'Ownr2'] as const) {
		const ssn = owner[`${n}_SSN`];
		if (typeof ssn === 'string' && ssn !== '') ownerSsns[n] = { last4: ssnLast4(ssn) };
		owner[`${n}_SSN`] = null;
	}
	const rows = await tx
		.insert(sandboxApplications)
		.values({
			id: app.id,
			officeId: app.officeId,
			scenario: app.scenario ?? 'ordinary',
			document: { ...app.document, OwnerOfficer: owner },
			ownerSsns,
			submitted: app.submitted,
			createdAt: app.createdAt
		})
		.onConflictDoNothing()
		.returning({ id: sandboxApplications.id });
	return rows.length === 1;
}

export async function getApplication(
	tx: Tx,
	officeId: number,
	id: number
): Promise<StoredApplication | undefined> {
	const [row] = await tx
		.select()
		.from(sandboxApplications)
		.where(and(eq(sandboxApplications.officeId, officeId), eq(sandboxApplications.id, id)));
	return row;
}

export interface ApplicationWithDecision {
	app: StoredApplication;
	isAccepted: boolean | null;
}

export async function listApplications(
	tx: Tx,
	officeId: number
): Promise<ApplicationWithDecision[]> {
	const rows = await tx
		.select({ app: sandboxApplications, isAccepted: sandboxDecisions.isAccepted })
		.from(sandboxApplications)
		.leftJoin(
			sandboxDecisions,
			and(
				eq(sandboxDecisions.officeId, sandboxApplications.officeId),
				eq(sandboxDecisions.applicationId, sandboxApplications.id)
			)
		)
		.where(eq(sandboxApplications.officeId, officeId))
		.orderBy(asc(sandboxApplications.id));
	return rows;
}

/** The calendar day of `d` in `timeZone`, as two-digit month and day and the year. */
export function dayIn(d: Date, timeZone: string): { year: string; month: string; day: string } {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		year: 'numeric',
		month: '2-digit',
		day: '2-digit'
	}).formatToParts(d);
	const part = (type: string) => parts.find((p) => p.type === type)!.value;
	return { year: part('year'), month: part('month'), day: part('day') };
}

/** MM/DD/YYYY, as the service writes CreatedDate. */
function mmddyyyy(d: Date, timeZone: string): string {
	const { year, month, day } = dayIn(d, timeZone);
	return `${month}/${day}/${year}`;
}

/** The ApplicationListItem (contract's assumed shape). */
export function toListItem({ app, isAccepted }: ApplicationWithDecision, timeZone: string): Obj {
	const doc = app.document;
	const names = doc.BusinessNames as Obj;
	const owner = doc.OwnerOfficer as Obj;
	return {
		ApplicationID: app.id,
		OfficeNo: String(app.officeId),
		RepNo: doc.RepNo,
		DBA_Name: names.DBA_Name,
		Legal_Name: names.Legal_Name,
		Ownr1_Legal_Name_First: owner.Ownr1_Legal_Name_First,
		Ownr1_Legal_Name_Last: owner.Ownr1_Legal_Name_Last,
		Ownr1_Email: owner.Ownr1_Email,
		CreatedDate: mmddyyyy(app.createdAt, timeZone),
		Status: isAccepted === null ? 'Pending Signature' : isAccepted ? 'Signed' : 'Declined'
	};
}
