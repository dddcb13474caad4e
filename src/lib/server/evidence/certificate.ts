import type { PDFDocument } from 'pdf-lib';
import { hashedJson } from '$lib/server/audit/audit';
import { carriedFrom, channelLabel } from '$lib/server/audit/labels';
import { ACCEPTANCE_SECTIONS } from '$lib/server/onboarding';
import { IDENTITY_STEP, type EvidenceFacts, type KeyStep } from './facts';
import { CONTENT_WIDTH, COLOR, MARGIN, Sheet, needsUnicode, type Style } from './layout';
import { channelText, eventSentence, officeTime, ownerNote, photoIdText, utcTime } from './words';

export interface CertificateOptions {
	timeZone: string;
	/** The public page that checks this signing: printed and in the QR code. */
	verifyUrl: string;
	/** Subject of the sealing certificate, named beside the integrity statement. */
	sealedBy: string;
	generatedAt: Date;
}

const HASH = { font: 'mono', size: 7 } as const;

/** The rep's copy's attachment: the JSON each audit event's hash is of, a line each. */
export const TRAIL_FILE = 'audit-trail.jsonl';

/** The key step for a link that expired while its session went on (facts.ts linkExpiredMidway). */
export const LINK_EXPIRED_STEP = 'Link expired; session went on';

/** The key step for each later hand-over of an in-person session (facts.ts handedOverAgain). */
export const HANDED_AGAIN_STEP = 'Handed to the signer again, photo ID checked';

/**
 * The key steps as printed: in time order, a pass from an earlier session named so, and a link's
 * expiry the session outlived and the device's later hand-overs among them. The facts keep them in
 * the order the certificate hash was first computed over (facts.ts `contentHash`), so printing
 * them sorted, or with the expiry and hand-overs (not in the hash), changes no record's hash.
 */
export function shownSteps(
	f: Pick<EvidenceFacts, 'steps' | 'identity' | 'linkExpiredMidway'> &
		Partial<Pick<EvidenceFacts, 'handedOverAgain'>>
): KeyStep[] {
	return [
		...f.steps.map((st) =>
			st.label === IDENTITY_STEP && f.identity?.earlierSession
				? { ...st, label: `${IDENTITY_STEP} (earlier session)` }
				: st
		),
		...(f.linkExpiredMidway ? [{ label: LINK_EXPIRED_STEP, at: f.linkExpiredMidway }] : []),
		...(f.handedOverAgain ?? []).map((at) => ({ label: HANDED_AGAIN_STEP, at }))
	].sort((a, b) => a.at.getTime() - b.at.getTime());
}

function when(at: Date, tz: string): string {
	return `${officeTime(at, tz)} (${utcTime(at)})`;
}

function identityText(f: EvidenceFacts): string {
	const i = f.identity;
	if (!i) return 'Not completed in this signing session';
	const earlier = i.earlierSession
		? `, carried over from ${carriedFrom(f.identityCarriedBy) ?? 'an earlier session'}`
		: '';
	return `Passed on try ${i.attempt}${earlier} (credit-bureau questions)`;
}

function outcomeLine(f: EvidenceFacts): { word: string; text: string } {
	return f.outcome === 'accepted'
		? { word: 'SIGNED', text: 'Accepted and signed electronically' }
		: { word: 'DECLINED', text: 'The signer declined the application' };
}

/** Page 1: the certificate a reviewer reads at a glance. */
function summary(s: Sheet, f: EvidenceFacts, o: CertificateOptions): void {
	const tz = o.timeZone;
	const x = MARGIN.x;
	const qrSize = 72;
	const textWidth = CONTENT_WIDTH - qrSize - 18;

	// Header: what this is, for which application; the QR code that checks it.
	s.title('ELECTRONIC SIGNATURE EVIDENCE', 'Certificate of Completion', 23, textWidth);
	s.y -= s.textAt(f.businessName, x, textWidth, { size: 12, font: 'bold' });
	s.y -= s.textAt(`Merchant application ${f.applicationId}, office ${f.officeId}`, x, textWidth, {
		size: 9.5,
		color: COLOR.muted
	});
	// Said on its first page, as its file's name says it: a rep passing copies on sends the signer's.
	if (f.trail) {
		s.y -= s.textAt(
			'The office’s copy, with the application’s whole audit trail: not the copy for the signer.',
			x,
			textWidth,
			{ size: 9.5, font: 'bold' }
		);
	}
	s.y = Math.min(s.y, s.verifyQr(o.verifyUrl, qrSize)) - 8;

	// The outcome band.
	const { word, text } = outcomeLine(f);
	const bandH = 31;
	s.page.drawRectangle({
		x,
		y: s.y - bandH,
		width: CONTENT_WIDTH,
		height: bandH,
		color: f.outcome === 'accepted' ? COLOR.good : COLOR.bad
	});
	s.textAt(word, x + 12, 90, { size: 14, font: 'bold', color: COLOR.white }, s.y - 8.5);
	s.textAt(
		text,
		x + 100,
		CONTENT_WIDTH - 112,
		{ size: 9.5, font: 'bold', color: COLOR.white },
		s.y - 4.5
	);
	s.textAt(
		when(f.decidedAt, tz),
		x + 100,
		CONTENT_WIDTH - 112,
		{ size: 8.5, color: COLOR.white },
		s.y - 17
	);
	s.y -= bandH + 7;

	// Two columns: the signer and the agreement; how it was signed and who they are.
	const gap = 18;
	const colW = (CONTENT_WIDTH - gap) / 2;
	const label = 84;
	const column = (cx: number, title: string, rows: Parameters<Sheet['keyValuesAt']>[0]) => {
		const top = s.y;
		s.textAt(title.toUpperCase(), cx, colW, { size: 7.5, font: 'bold', color: COLOR.navy });
		s.y -= 12;
		s.rule(cx, colW);
		s.y -= 5;
		const h = s.keyValuesAt(rows, cx, colW, label);
		const bottom = s.y - h;
		s.y = top;
		return bottom;
	};
	const signatureRow = f.signature
		? [
				{
					label: 'Signature',
					value: f.signature,
					draw: (top: number) => {
						const h = s.signature(f.signature!, x + label, top + 2, colW - label - 4);
						return (
							h +
							s.textAt(
								`Typed: ${f.signature}`,
								x + label,
								colW - label,
								{ size: 7, color: COLOR.muted },
								top - h + 2
							) -
							2
						);
					}
				}
			]
		: [];
	const leftBottom = column(x, 'Signer', [
		{ label: 'Name', value: f.signerName, style: { font: 'bold' } },
		...(f.ownerName
			? [
					{
						label: 'Owner',
						value: ownerNote(f.ownerName),
						style: { color: COLOR.bad }
					}
				]
			: []),
		{ label: 'Email', value: f.signerEmail },
		...signatureRow,
		{ label: 'IP address', value: f.ip ?? 'not recorded', style: { font: 'mono', size: 8.5 } },
		{ label: 'Device', value: f.device }
	]);
	const rightBottom = column(x + colW + gap, 'Agreement', [
		{ label: 'Business', value: f.businessName },
		{ label: 'Application', value: `${f.applicationId} (office ${f.officeId})` },
		...(f.serviceVersion ? [{ label: 'Terms version', value: f.serviceVersion }] : []),
		{
			label: 'Outcome',
			value: f.outcome === 'accepted' ? 'Accepted and signed' : 'Declined',
			style: { font: 'bold' }
		},
		{ label: 'Decision ref.', value: f.reference, style: { font: 'mono', size: 7.5 } },
		{
			label: 'Service decision',
			value:
				f.serviceDecisionId !== null
					? `No. ${f.serviceDecisionId}`
					: f.deliveryStatus === 'pending'
						? 'Being delivered to the onboarding service'
						: f.deliveryStatus === 'delivered'
							? 'Received (no number returned)'
							: 'Refused by the service; the rep follows up'
		}
	]);
	s.y = Math.min(leftBottom, rightBottom) - 5;

	const photoId = photoIdText(f);
	const leftBottom2 = column(
		x,
		f.outcome === 'accepted' ? 'How it was signed' : 'How it was decided',
		[
			{ label: 'Channel', value: channelText(f) },
			...(photoId ? [{ label: 'Photo ID', value: photoId }] : []),
			...(f.declineReason ? [{ label: 'Reason given', value: `“${f.declineReason}”` }] : [])
		]
	);
	const rightBottom2 = column(x + colW + gap, 'Identity check', [
		{ label: 'Result', value: identityText(f) },
		{
			label: 'Question set',
			value: f.identity?.questionSetId ?? '-',
			style: { font: 'mono', size: 8 }
		},
		{ label: 'Answers', value: 'Never stored; only the outcome' }
	]);
	s.y = Math.min(leftBottom2, rightBottom2) - 3;

	// When each key step happened.
	s.heading('When it happened', 40);
	s.table(
		[
			{ title: 'Step', width: 170, style: { size: 8 } },
			{ title: `Office time (${tz})`, width: 200, style: { size: 8 } },
			{ title: 'UTC', width: CONTENT_WIDTH - 370, style: { size: 8, color: COLOR.muted } }
		],
		shownSteps(f).map((st) => [st.label, officeTime(st.at, tz), utcTime(st.at)]),
		{ rowGap: 1 }
	);

	// What was presented, each by its hash; a section the office does not present, named, as the
	// service receives a flag for each of the five: all five in their order, the order the signed
	// copy's flags are in, then anything else presented, then the consent and the application.
	const rows = f.documents.map((d) => [d.title, d.note, d.sha256 ?? 'not recorded']);
	const presented = rows.slice(0, f.sections.length);
	const five = ACCEPTANCE_SECTIONS.map(
		(a) => presented.find((r) => r[0] === a.title) ?? [a.title, 'not presented', '-']
	);
	const besides = presented.filter((r) => !ACCEPTANCE_SECTIONS.some((a) => a.title === r[0]));
	s.heading('Documents presented', 40);
	s.table(
		[
			{ title: 'Document', width: 150, style: { size: 8 } },
			{ title: '', width: 80, style: { size: 8, color: COLOR.muted } },
			{
				title:
					f.outcome === 'accepted'
						? 'SHA-256 of what was shown (the signed copy attaches each file)'
						: 'SHA-256 of what was shown',
				width: CONTENT_WIDTH - 230,
				style: HASH
			}
		],
		[...five, ...besides, ...rows.slice(f.sections.length)],
		{ rowGap: 1 }
	);
	// Integrity: the chain and the seal, kept on one page: its last lines alone atop the next read
	// as a stray (a summary made longer by a note pushed them there).
	const c = f.chain;
	const chainLine = c.ok
		? `Hash chain verified: all ${c.count} audit events intact (none changed, removed or reordered) at ${officeTime(o.generatedAt, tz)}.`
		: `WARNING: the audit trail of this application no longer verifies: the chain breaks at event ${c.brokenAt} of ${c.count} (${c.reason}).`;
	const chainStyle: Style = { size: 8, font: 'bold', color: c.ok ? COLOR.good : COLOR.bad };
	const hashRows: [string, string][] = [
		['Chain head', c.ok ? c.head : 'not available: the chain is broken'],
		['Decision event', `#${f.decisionEvent.seq}  ${f.decisionEvent.hash}`],
		['Certificate hash', f.contentHash]
	];
	const sealLine = `The certificate hash covers the facts above as fixed at the decision${f.outcome === 'accepted' ? '; the signed copy prints it too' : ''}. Sealed with the portal's digital signature (${o.sealedBy}): any change breaks the seal. Verify at ${o.verifyUrl}.`;
	const sealStyle: Style = { size: 7, color: COLOR.muted };
	s.heading(
		'Integrity of this record',
		s.textHeight(chainLine, CONTENT_WIDTH, chainStyle) +
			2 +
			// A row is as tall as its label (keyValuesAt's, 8.5 pt), and 1 pt apart.
			hashRows.length * (Math.max(s.lineHeight(HASH), s.lineHeight({ size: 8.5 })) + 1) +
			s.textHeight(sealLine, CONTENT_WIDTH, sealStyle)
	);
	s.paragraph(chainLine, chainStyle, 2);
	s.y -= s.keyValuesAt(
		hashRows.map(([l, v]) => ({ label: l, value: v, style: HASH })),
		x,
		CONTENT_WIDTH,
		92,
		1
	);
	s.paragraph(sealLine, sealStyle);
}

interface TimelineRow {
	at: Date;
	what: string;
	ip: string;
}

/**
 * The session's events with, at its time, the link's expiry the session went on past
 * (facts.ts linkExpiredMidway): not an event of the trail, and said so, but a reader of the
 * timeline should not have to find it in the key steps alone.
 */
function withExpiry(rows: TimelineRow[], expiredAt: Date | null): TimelineRow[] {
	if (!expiredAt) return rows;
	const i = rows.findIndex((r) => r.at > expiredAt);
	const row = {
		at: expiredAt,
		what: 'The signing link expired, at the time set when it was made (not an event of the trail). This session, started on it before then, went on, as the portal allows.',
		ip: ''
	};
	return i === -1 ? [...rows, row] : [...rows.slice(0, i), row, ...rows.slice(i)];
}

function timeline(s: Sheet, f: EvidenceFacts, tz: string): void {
	s.heading('Timeline of the signing session', 80);
	const elsewhere = f.trail ? 0 : f.chain.count - f.sessionEvents.length;
	const others =
		f.otherSessions === 0
			? ''
			: ` The application had ${f.otherSessions === 1 ? 'one other signing session' : `${f.otherSessions} other signing sessions`} before this decision.`;
	const rest =
		elsewhere === 0
			? ''
			: // Not "the others are in the rep's copy": some (the link's making) are in the key steps above.
				` The application's trail holds ${f.chain.count} events in all, of which this session's are shown here; the rep's and operator's copy lists them all.${others}`;
	s.paragraph(
		`Every event of this signing session as the audit trail records it, oldest first. Channel: ${channelLabel(f.sessionEvents[0]?.channel ?? null) || 'not recorded'}.${rest}`,
		{ size: 8, color: COLOR.muted }
	);
	s.table(
		[
			{ title: `Time (${tz})`, width: 128, style: { size: 8 } },
			{ title: 'What happened', width: CONTENT_WIDTH - 128 - 92, style: { size: 8.5 } },
			{ title: 'IP address', width: 92, style: { size: 7.5, font: 'mono' } }
		],
		withExpiry(
			f.sessionEvents.map((e) => ({ at: e.at, what: eventSentence(e), ip: e.ip ?? '' })),
			f.linkExpiredMidway
		).map((r) => [`${officeTime(r.at, tz)}\n${utcTime(r.at)}`, r.what, r.ip])
	);
}

function appendix(s: Sheet, f: EvidenceFacts): void {
	if (!f.trail) return;
	s.newPage();
	s.heading('Appendix: the application’s full audit trail', 80);
	s.paragraph(
		`For the rep and the operator only. Every event of the application, all links and sessions, delivery included, with its data and its place in the hash chain. Each event’s hash is the SHA-256 of the canonical JSON (UTF-8, keys sorted, no spaces) of its officeId, applicationId, seq, at (UTC, to the millisecond), type, channel, ip, userAgent, rep, sessionId, data and prevHash (the previous event’s hash; 64 zeros for the first). That JSON is attached to this PDF as ${TRAIL_FILE}, one event per line, oldest first: save it (pdfdetach -saveall, or a PDF reader’s attachments), and the SHA-256 of each line without its line break is that event’s hash. In the data, ssnLast4 is the last four digits of the Social Security Number the signer typed; the number itself is never printed.`,
		{ size: 7.5, color: COLOR.muted }
	);
	for (const e of f.trail) {
		const head = `#${e.seq}  ${e.at.toISOString()}  ${e.type}${e.channel ? `  ${e.channel}` : ''}${e.rep ? `  rep ${e.rep}` : ''}`;
		const who = [
			e.sessionId ? `session ${e.sessionId}` : null,
			e.ip ? `IP ${e.ip}` : null,
			e.userAgent ? `UA ${e.userAgent}` : null
		]
			.filter(Boolean)
			.join('  ');
		const data = Object.keys(e.data).length ? JSON.stringify(e.data) : '';
		s.ensure(40);
		s.paragraph(head, { size: 7.5, font: 'bold' }, 0);
		s.paragraph(`${eventSentence(e)}${who ? `  ${who}` : ''}`, { size: 7 }, 0);
		if (data) s.paragraph(data, { size: 6.5, font: 'mono', color: COLOR.muted }, 0);
		s.paragraph(
			`prev ${e.prevHash}\nhash ${e.hash}`,
			{ size: 6.5, font: 'mono', color: COLOR.muted },
			5
		);
	}
}

/** The certificate of completion, unsealed; `audience` decides whether the appendix is there. */
export async function renderCertificate(
	f: EvidenceFacts,
	o: CertificateOptions
): Promise<PDFDocument> {
	const s = await Sheet.create(
		{
			title: `Certificate of completion - application ${f.applicationId}${f.trail ? ' - office copy' : ''}`,
			subject: `${f.businessName} - decision ${f.reference}`,
			date: o.generatedAt
		},
		{ unicode: needsUnicode(f) }
	);
	summary(s, f, o);
	s.newPage();
	timeline(s, f, o.timeZone);
	appendix(s, f);
	if (f.trail) {
		const lines = f.trail.map((e) => hashedJson(e) + '\n').join('');
		await s.pdf.attach(Buffer.from(lines, 'utf8'), TRAIL_FILE, {
			mimeType: 'text/plain',
			description: 'The audit trail: the canonical JSON each event’s hash is of, one per line',
			creationDate: o.generatedAt,
			modificationDate: o.generatedAt
		});
	}
	s.footers(
		`Certificate of completion - application ${f.applicationId} - ref. ${f.reference} - ${f.trail ? 'office’s copy' : 'signer’s copy'} - made ${utcTime(o.generatedAt)}`
	);
	return s.pdf;
}
