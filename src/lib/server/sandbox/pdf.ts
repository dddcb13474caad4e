import { createTextPdf, type TextPdf } from '../pdf/document';
import { dayIn, type StoredApplication } from './application/store';

type Obj = Record<string, unknown>;
type Value = string | number | boolean | null | undefined;

/** Words of the service's field names, spelled out for a reader. */
const WORDS: Record<string, string> = {
	Ownr1: 'Owner 1',
	Ownr2: 'Owner 2',
	DOB: 'date of birth',
	SSN: 'SSN',
	ZIP: 'ZIP',
	Tkt: 'ticket',
	Mnthly: 'monthly',
	Vol: 'volume',
	Pct: '%',
	Acct: 'account',
	Merch: 'merchant',
	Loc: 'location',
	Num: 'number of',
	Disc: 'discount',
	Trans: 'transaction',
	Mon: 'monthly',
	Prod: '(chosen)',
	Exst: 'existing',
	Prev: 'previous',
	Dwngrd: 'downgrade',
	CNP: 'card-not-present',
	Cmnts: 'comments',
	Mgr: 'manager',
	Rep: 'rep',
	Stmnt: 'statement',
	BK: 'bankruptcy',
	Proc: 'processor',
	Fed: 'federal',
	MOTO: 'mail/phone order',
	ESF: '',
	IMA: '',
	RF: '',
	GM: '',
	BS: '',
	Net: '',
	CB: 'consolidated billing',
	PmntGtwyVTerm: 'payment gateway virtual terminal',
	CustVault: 'customer vault',
	DDA: 'DDA',
	DBA: 'DBA',
	Reg: 'regulatory',
	Comp: 'compliance',
	Mnt: 'maintenance',
	Maint: 'maintenance',
	Amt: 'amount',
	AcctUpdater: 'account updater',
	SiToTrain: 'on-site training',
	LPO: 'payoff'
};

/** "Mnthly_Vol_Avg" → "Monthly volume avg". */
export function humanize(field: string): string {
	const words = field
		.split('_')
		.flatMap((w) => (w in WORDS ? [WORDS[w]!] : w.split(/(?<=[a-z])(?=[A-Z])/)))
		.filter((w) => w !== '')
		.map((w, i) => (i === 0 || /^[A-Z0-9]{2,}$/.test(w) ? w : w.toLowerCase()));
	const text = words.join(' ');
	return text.charAt(0).toUpperCase() + text.slice(1);
}

const maskTail = (value: unknown) => {
	const s = typeof value === 'string' ? value : '';
	return s.length <= 4 ? s : `${'*'.repeat(s.length - 4)}${s.slice(-4)}`;
};

const asValue = (v: unknown): Value =>
	v === null || v === undefined || ['string', 'number', 'boolean'].includes(typeof v)
		? (v as Value)
		: JSON.stringify(v);

/** Key–value rows for every scalar member of a group; nested objects are left to the caller. */
function rows(
	doc: TextPdf,
	group: unknown,
	skip: string[] = [],
	mask: Record<string, string> = {}
) {
	if (group === null || typeof group !== 'object') {
		doc.paragraph('Not provided.', { muted: true });
		return;
	}
	for (const [key, value] of Object.entries(group as Obj)) {
		if (skip.includes(key)) continue;
		if (value !== null && typeof value === 'object') continue;
		doc.keyValue(humanize(key), key in mask ? mask[key] : asValue(value));
	}
}

/** The application as a readable, multi-page PDF: every group, SSNs and bank account masked. */
export async function renderApplicationPdf(
	app: StoredApplication,
	now: Date,
	timeZone: string
): Promise<Uint8Array> {
	const isoDay = (d: Date) => {
		const { year, month, day } = dayIn(d, timeZone);
		return `${year}-${month}-${day}`;
	};
	const d = app.document;
	const names = d.BusinessNames as Obj;
	const owner = d.OwnerOfficer as Obj;
	const esf = d.EquipmentSetupForm as Obj;
	const doc = await createTextPdf({
		title: `Merchant application ${app.id}`,
		footer: `Application ${app.id} - office ${app.officeId} - ${String(names.DBA_Name ?? '')} - sandbox copy generated ${isoDay(now)}`,
		subject: String(names.Legal_Name ?? ''),
		date: now
	});

	doc.title(`Merchant application ${app.id}`);
	doc.paragraph(`${String(names.DBA_Name ?? '')} (${String(names.Legal_Name ?? '')})`, {
		size: 12
	});
	doc.keyValues([
		['Application ID', app.id],
		['Office', asValue(d.OfficeNo)],
		['Sales rep', asValue(d.RepNo)],
		['Created', isoDay(app.createdAt)]
	]);

	doc.heading('Business names and addresses');
	rows(doc, names);

	doc.heading('Business profile');
	rows(doc, d.Profile, [], { Bank_Acct: maskTail((d.Profile as Obj).Bank_Acct) });

	doc.heading('Owners and officers');
	const ssn = (n: 'Ownr1' | 'Ownr2') => {
		const last4 = app.ownerSsns[n]?.last4;
		return last4 ? `***-**-${last4}` : null;
	};
	doc.subheading('Owner 1');
	rows(doc, pick(owner, 'Ownr1_'), [], { Ownr1_SSN: ssn('Ownr1') ?? '' });
	doc.keyValue('Second owner', asValue(owner.IsSecondOwner));
	if (owner.IsSecondOwner === true) {
		doc.subheading('Owner 2');
		rows(doc, pick(owner, 'Ownr2_'), [], { Ownr2_SSN: ssn('Ownr2') ?? '' });
	}

	doc.heading('Site survey');
	rows(doc, d.SiteSurvey);
	doc.heading('Consolidated billing');
	rows(doc, d.ConsolidatedBilling);
	doc.heading('Charge card network');
	rows(doc, d.ChargeCardNetwork);
	doc.heading('Other fees');
	rows(doc, app.submitted.OtherFees);
	doc.heading('Gateway merchants');
	rows(doc, d.GatewayMerchants);
	doc.heading('Billing service');
	rows(doc, app.submitted.BillingService);

	doc.heading('Equipment setup');
	rows(doc, esf);
	const terminals = Array.isArray(esf.AssignedTerminals) ? (esf.AssignedTerminals as Obj[]) : [];
	terminals.forEach((t, i) => {
		doc.subheading(`Terminal ${i + 1}: ${String(t.DisplayName ?? '')}`);
		rows(doc, t);
		const sw = (t.AssignedSoftware ?? {}) as Obj;
		const version = (sw.Version ?? {}) as Obj;
		doc.keyValues([
			['Software', asValue(sw.Description)],
			['Software ID', asValue(sw.AssignedSoftwareID)],
			['Software version', asValue(version.Description)]
		]);
	});
	if (terminals.length === 0) doc.paragraph('No terminals assigned.', { muted: true });
	doc.subheading('Lease');
	rows(doc, esf.Lease);
	doc.subheading('Lease payoff option');
	rows(doc, esf.LeasePayoffOption);

	doc.heading('Internet and mobile addendum');
	rows(doc, d.InternetMobileAddendum);
	doc.heading('Account updater');
	rows(doc, d.AccountUpdater);

	// No "other programs": the interface document carries them (NextDayFunding and the rest) as
	// null in every request and response, so the application says nothing of them. Printing
	// "Not elected" contradicted the Next Day Funding addendum the office's terms present.

	return doc.save();
}

function pick(obj: Obj, prefix: string): Obj {
	return Object.fromEntries(Object.entries(obj).filter(([k]) => k.startsWith(prefix)));
}
