import { createTextPdf } from '$lib/server/pdf/document';
import type { AuditEvent, ChainVerification } from './audit';
import { channelLabel, dataLines, typeLabel, utc } from './labels';

export type CertificateOutcome = 'accepted' | 'declined' | 'pending';

export interface CertificateInput {
	officeId: number;
	applicationId: number;
	businessName: string;
	signerName: string;
	outcome: CertificateOutcome;
	decisionReference: string | null;
	events: AuditEvent[];
	verification: ChainVerification;
	generatedAt: Date;
}

const OUTCOMES: Record<CertificateOutcome, string> = {
	accepted: 'Accepted and signed',
	declined: 'Declined',
	pending: 'No decision yet'
};

// Hashes are set in a small monospace font so that each fits on one line and reads exactly.
const HASH = { mono: true, size: 8 } as const;

/**
 * The signing certificate: the application's evidence trail as a PDF. It prints only what the
 * trail holds (which `appendAudit` keeps free of SSNs and identity answers) plus the names.
 */
export async function renderCertificate(input: CertificateInput): Promise<Uint8Array> {
	const { verification: v } = input;
	const doc = await createTextPdf({
		title: 'Signing certificate',
		subject: `Application ${input.applicationId}`,
		footer: `Signing certificate - office ${input.officeId}, application ${input.applicationId} - generated ${utc(input.generatedAt)}`,
		date: input.generatedAt
	});

	doc.title('Signing certificate');
	doc.keyValues([
		['Business', input.businessName],
		['Signer', input.signerName],
		['Office', input.officeId],
		['Application', input.applicationId],
		['Outcome', OUTCOMES[input.outcome]],
		['Decision reference', input.decisionReference ?? 'none'],
		['Events recorded', input.events.length],
		['Generated', utc(input.generatedAt)]
	]);

	doc.heading('Integrity of the record');
	if (v.ok) {
		doc.paragraph(
			`The chain of ${v.count} events is intact: no event was changed, removed or reordered.`
		);
		doc.paragraph('Head hash (the hash of the last event):');
		doc.paragraph(v.head, HASH);
	} else {
		doc.paragraph(
			`THE RECORD HAS BEEN ALTERED: the chain breaks at event ${v.brokenAt} of ${v.count} (${v.reason}). The events below are shown as stored.`,
			{ bold: true }
		);
	}
	doc.paragraph(
		'Each event is hash-chained: its hash is the SHA-256 of the canonical JSON (keys sorted) of its office, application, sequence number, time, type, channel, IP address, user agent, rep, session, data and the previous event’s hash (64 zeros for the first). Changing, removing or reordering an event breaks the chain; removing the latest events changes the head hash printed above, so keep this certificate.',
		{ muted: true, size: 8 }
	);

	doc.heading('Events');
	for (const e of input.events) {
		doc.subheading(`${e.seq}. ${typeLabel(e.type)}`);
		doc.keyValues([
			['Time (UTC)', utc(e.at)],
			['Event type', e.type],
			['Channel', channelLabel(e.channel)],
			['IP address', e.ip],
			['User agent', e.userAgent],
			['Rep', e.rep],
			['Session', e.sessionId]
		]);
		const lines = dataLines(e.data);
		if (lines.length > 0) doc.paragraph(lines.join('\n'), HASH);
		doc.paragraph(`Previous hash: ${e.prevHash}\nEvent hash: ${e.hash}`, { ...HASH, muted: true });
	}
	return doc.save();
}
