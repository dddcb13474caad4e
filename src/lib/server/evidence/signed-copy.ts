import { PDFDocument } from 'pdf-lib';
import { ACCEPTANCE_SECTIONS } from '$lib/server/onboarding';
import type { EvidenceFacts } from './facts';
import { CONTENT_WIDTH, COLOR, MARGIN, Sheet, needsUnicode } from './layout';
import { officeTime, utcTime } from './words';

export interface SignedCopyOptions {
	timeZone: string;
	verifyUrl: string;
	generatedAt: Date;
	/** The application PDF the pages come from: the copy presented at signing, if kept. */
	source: { bytes: Uint8Array; sha256: string; pages: number; offeredAt: Date };
}

/** The five acceptance flags as the service receives them. */
function flagRows(f: EvidenceFacts): { label: string; value: string }[] {
	return ACCEPTANCE_SECTIONS.map((section) => {
		const shown = f.sections.find((s) => s.title === section.title);
		return {
			label: section.title,
			value: !shown ? 'Not presented' : shown.accepted ? 'Accepted' : 'Not accepted'
		};
	});
}

/**
 * The service's application PDF exactly as presented, with a signature page added: the typed
 * signature drawn in a script font, who, when, from where, the decision reference, the five
 * acceptance flags and the certificate's hash. Returned unsealed.
 */
export async function renderSignedCopy(
	f: EvidenceFacts,
	o: SignedCopyOptions
): Promise<PDFDocument> {
	const pdf = await PDFDocument.load(o.source.bytes, { updateMetadata: false });
	pdf.setTitle(`Signed application ${f.applicationId} - ${f.businessName}`);
	pdf.setSubject(`Signed copy - decision ${f.reference}`);
	pdf.setModificationDate(o.generatedAt);
	const s = await Sheet.on(pdf, { unicode: needsUnicode(f) });
	const tz = o.timeZone;
	const x = MARGIN.x;
	const qrSize = 70;

	s.textAt('SIGNATURE PAGE', x, 300, { size: 7.5, font: 'bold', color: COLOR.muted });
	s.y -= 12;
	s.textAt('Electronic signature', x, 380, { size: 21, font: 'bold', color: COLOR.navy });
	s.y -= 28;
	s.y -= s.textAt(
		`${f.businessName} - merchant application ${f.applicationId}, office ${f.officeId}`,
		x,
		CONTENT_WIDTH - qrSize - 20,
		{ size: 10 }
	);
	s.y = Math.min(s.y, s.verifyQr(o.verifyUrl, qrSize)) - 6;

	const matches = o.source.sha256 === f.applicationPdf?.sha256;
	s.paragraph(
		matches
			? `This page is added to the ${o.source.pages} pages of the application exactly as they were presented to the signer (SHA-256 of that PDF: ${o.source.sha256}).`
			: `The application PDF was not recorded when the signer decided; the ${o.source.pages} pages before this one were fetched from the onboarding service on ${officeTime(o.source.offeredAt, tz)} (SHA-256 ${o.source.sha256}).`,
		{ size: 8.5, color: matches ? COLOR.muted : COLOR.bad },
		10
	);

	// The signature itself, large, on its line, and its caption under it, in a panel as tall as
	// both: a long name takes more lines of either.
	const inner = CONTENT_WIDTH - 28;
	const signed = f.signature ?? f.signerName;
	const caption = `${f.signerName} typed "${f.signature ?? ''}" as their signature on ${officeTime(f.decidedAt, tz)}.`;
	const captionStyle = { size: 8, color: COLOR.muted };
	const captionTop = s.y - 20 - s.signatureHeight(signed, inner, 34) - 2.5;
	const height = Math.max(92, s.y - captionTop + s.textHeight(caption, inner, captionStyle) + 8);
	s.page.drawRectangle({ x, y: s.y - height, width: CONTENT_WIDTH, height, color: COLOR.panel });
	s.textAt('Signed by', x + 14, 200, { size: 7.5, font: 'bold', color: COLOR.muted }, s.y - 10);
	s.signature(signed, x + 14, s.y - 20, inner, 34);
	s.textAt(caption, x + 14, inner, captionStyle, captionTop);
	s.y -= height + 16;

	const rows: { label: string; value: string; style?: { font: 'mono'; size: number } }[] = [
		{ label: 'Signer', value: `${f.signerName} <${f.signerEmail}>` },
		{ label: 'Signed at', value: `${officeTime(f.decidedAt, tz)}  (${utcTime(f.decidedAt)})` },
		{ label: 'IP address', value: f.ip ?? 'not recorded', style: { font: 'mono', size: 9 } },
		{ label: 'Device', value: f.device },
		{ label: 'Decision reference', value: f.reference, style: { font: 'mono', size: 8 } },
		{
			label: 'Service decision no.',
			value: f.serviceDecisionId !== null ? String(f.serviceDecisionId) : 'not yet assigned'
		}
	];
	s.heading('The signing', 60);
	s.y -= s.keyValuesAt(rows, x, CONTENT_WIDTH, 130);
	s.heading('Acceptance', 60);
	s.y -= s.keyValuesAt(flagRows(f), x, CONTENT_WIDTH, 130);
	s.heading('Evidence', 40);
	s.y -= s.keyValuesAt(
		[{ label: 'Certificate hash', value: f.contentHash, style: { font: 'mono', size: 8 } }],
		x,
		CONTENT_WIDTH,
		130
	);
	s.paragraph(
		`The certificate of completion for this decision carries the same certificate hash and the full record of the signing. This file is sealed with the portal's digital signature: a PDF reader shows it as signed, and any change breaks the seal. Check it at ${o.verifyUrl}.`,
		{ size: 7.5, color: COLOR.muted }
	);
	s.footers(
		`Signature page - application ${f.applicationId} - ref. ${f.reference}`,
		pdf.getPageCount() - 1
	);
	return pdf;
}
