import { PDFArray, PDFDocument, PDFName, PDFRef } from 'pdf-lib';
import { ACCEPTANCE_SECTIONS } from '$lib/server/onboarding';
import { agreementBlocks, blocksText, type Block } from './agreement';
import { CONSENT_TITLE, type EvidenceFacts } from './facts';
import { CONTENT_WIDTH, COLOR, MARGIN, Sheet, needsUnicode, type Style } from './layout';
import { channelText, officeTime, ownerNote, photoIdText, utcTime } from './words';
import { CONSENT_SHA256, CONSENT_TEXT } from '$lib/server/signing/terms';

export interface SignedCopyOptions {
	timeZone: string;
	verifyUrl: string;
	generatedAt: Date;
	/** The application PDF the pages come from: the copy presented at signing, if kept. */
	source: { bytes: Uint8Array; sha256: string; pages: number; offeredAt: Date };
	/**
	 * The acceptance language's sections as shown, in order, with the sanitized HTML the
	 * certificate hashes (null where the portal no longer holds it).
	 */
	agreement: AgreementSection[];
}

export interface AgreementSection {
	title: string;
	accepted: boolean;
	sha256: string | null;
	html: string | null;
}

/**
 * The agreement's pages: each section the signer was shown, as text, under its title and whether
 * it was accepted. The certificate names the sections by hash alone; here a reviewer with the
 * signer's copy reads what was accepted, the personal guaranty included.
 */
function agreementPages(s: Sheet, sections: { section: AgreementSection; blocks: Block[] }[]) {
	const x = MARGIN.x;
	s.title('THE AGREEMENT AS SHOWN', 'The documents the signer accepted', 18);
	s.paragraph(
		'The acceptance language as the agreement page showed it to the signer, section by section, with the words in their order (the page’s styling is not kept, and a link’s address follows its words). Each section’s SHA-256, on the certificate of completion too, is of the section’s HTML as the page showed it: that HTML is attached to this PDF (see the last page), so the hash can be checked.',
		{ size: 8.5, color: COLOR.muted },
		6
	);
	const body = { size: 9 };
	for (const { section, blocks } of sections) {
		// The heading, its hash and the section's first lines together: not a heading alone at a
		// page's foot.
		s.heading(`${section.title} - ${section.accepted ? 'accepted' : 'not accepted'}`, 80);
		if (section.sha256) {
			s.paragraph(`SHA-256 ${section.sha256}`, { size: 7, font: 'mono', color: COLOR.muted }, 6);
		}
		if (section.html === null) {
			s.paragraph(
				'The text of this section is not held by the portal any more; its SHA-256 above identifies it.',
				{ ...body, color: COLOR.bad }
			);
			continue;
		}
		for (const b of blocks) {
			if (b.kind === 'heading') {
				s.ensure(40);
				s.y -= 3;
				s.paragraph(b.text, { size: 9.5, font: 'bold' }, 2);
			} else if (b.kind === 'text' || b.kind === 'item') {
				const lead = b.kind === 'item' ? `${'      '.repeat(b.depth)}${b.marker}  ` : '';
				const lines = b.text.split('\n');
				lines.forEach((line, i) =>
					s.paragraph(`${i === 0 ? lead : ''}${line}`, body, i === lines.length - 1 ? 4 : 0)
				);
			} else if (b.kind === 'rule') {
				s.ensure(12);
				s.rule(x, CONTENT_WIDTH);
				s.y -= 8;
			} else if (b.rows.length > 0 || b.head) {
				const width = CONTENT_WIDTH / Math.max(1, (b.head ?? b.rows[0] ?? ['']).length);
				const columns = (b.head ?? b.rows[0]!.map(() => '')).map((title) => ({
					title,
					width,
					style: { size: 8.5 }
				}));
				s.ensure(40);
				s.table(columns, b.rows);
				s.y -= 4;
			}
		}
	}
}

/** Whether the signer agreed to the consent's text as this portal holds it now (its hash). */
const consentIsToday = (f: EvidenceFacts) =>
	f.documents.find((d) => d.title === CONSENT_TITLE)?.sha256 === CONSENT_SHA256;

/** The consent to electronic records as the terms page showed it, when it is today's text. */
function consentPages(s: Sheet, f: EvidenceFacts) {
	if (!consentIsToday(f)) return;
	s.heading(`${CONSENT_TITLE} - agreed`, 80);
	s.paragraph(`SHA-256 ${CONSENT_SHA256}`, { size: 7, font: 'mono', color: COLOR.muted }, 6);
	for (const line of CONSENT_TEXT) s.paragraph(line, { size: 9 }, 4);
}

/**
 * The files each printed hash is of, attached to the signed copy: a reviewer saves them and
 * hashes them (pdfdetach -saveall). Named in the signature page's list.
 */
async function attachShown(
	pdf: PDFDocument,
	f: EvidenceFacts,
	o: SignedCopyOptions
): Promise<{ name: string; what: string }[]> {
	const files: { name: string; what: string; bytes: Uint8Array; type: string }[] = [];
	o.agreement.forEach((section, i) => {
		if (section.html === null) return;
		const slug = section.title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
		files.push({
			name: `shown-${i + 1}-${slug}.html`,
			what: `${section.title}, the HTML the page showed`,
			bytes: Buffer.from(section.html, 'utf8'),
			type: 'text/html'
		});
	});
	if (consentIsToday(f)) {
		files.push({
			name: 'shown-consent.txt',
			what: 'Consent to electronic records: its paragraphs, a line each (no line break at the end)',
			bytes: Buffer.from(CONSENT_TEXT.join('\n'), 'utf8'),
			type: 'text/plain'
		});
	}
	const presented = o.source.sha256 === f.applicationPdf?.sha256;
	files.push({
		name: presented ? 'application-as-presented.pdf' : 'application-fetched-later.pdf',
		what: presented
			? 'Application PDF, as the service gave it for the signer'
			: 'Application PDF, as the service gave it after the signing',
		bytes: o.source.bytes,
		type: 'application/pdf'
	});
	for (const file of files) {
		await pdf.attach(file.bytes, file.name, {
			mimeType: file.type,
			description: file.what,
			creationDate: o.generatedAt,
			modificationDate: o.generatedAt
		});
	}
	return files.map(({ name, what }) => ({ name, what }));
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
	const agreement = o.agreement.map((section) => ({
		section,
		blocks: section.html === null ? [] : agreementBlocks(section.html)
	}));
	const firstAdded = pdf.getPageCount();
	const s = await Sheet.on(pdf, {
		unicode: needsUnicode([f, agreement.map((a) => blocksText(a.blocks))])
	});
	if (agreement.length > 0) {
		agreementPages(s, agreement);
		consentPages(s, f);
		s.newPage();
	}
	const attached = await attachShown(pdf, f, o);
	const signaturePage = pdf.getPageCount() - 1;
	const tz = o.timeZone;
	const x = MARGIN.x;
	const qrSize = 70;
	// The part's own sentence says which of the file's pages it is, written before the part is:
	// one that runs onto a second page (a long name, many attachments) is drawn again, saying so.
	const signatureParts = (pages: number) => {
		s.title('SIGNATURE PAGE', 'Electronic signature', 21, 380);
		s.y -= s.textAt(
			`${f.businessName} - merchant application ${f.applicationId}, office ${f.officeId}`,
			x,
			CONTENT_WIDTH - qrSize - 20,
			{ size: 10 }
		);
		s.y = Math.min(s.y, s.verifyQr(o.verifyUrl, qrSize)) - 6;

		const matches = o.source.sha256 === f.applicationPdf?.sha256;
		// Each part numbers its own pages (the service's PDF does): this says where each one is.
		const last =
			pages === 1
				? `this page (${pagesWord(signaturePage, signaturePage + 1)})`
				: `these signature pages (${pagesWord(signaturePage, signaturePage + pages)})`;
		const one = o.source.pages === 1;
		const pagesOfIt = one ? 'the one page' : `the ${o.source.pages} pages`;
		const rest =
			signaturePage > firstAdded
				? `the agreement they accepted, as text (${pagesWord(firstAdded, signaturePage)}), and ${last}`
				: last;
		s.paragraph(
			matches
				? `This copy holds ${pagesOfIt} of the application exactly as ${one ? 'it was' : 'they were'} presented to the signer (${pagesWord(0, firstAdded)}; SHA-256 of that PDF: ${o.source.sha256}), then ${rest}.`
				: `The application PDF was not recorded when the signer decided; ${pagesOfIt} at the start of this copy (${pagesWord(0, firstAdded)}) ${one ? 'was' : 'were'} fetched from the onboarding service on ${officeTime(o.source.offeredAt, tz)} (SHA-256 ${o.source.sha256}). Next in this copy: ${rest}.`,
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

		const photoId = photoIdText(f);
		const rows: { label: string; value: string; style?: Style }[] = [
			{ label: 'Signer', value: `${f.signerName} <${f.signerEmail}>` },
			...(f.ownerName
				? [
						{
							label: 'Owner',
							value: ownerNote(f.ownerName),
							style: { color: COLOR.bad, size: 9 }
						}
					]
				: []),
			// How it reached them: in person, the IP address and device below are the rep's tablet's.
			{ label: 'Channel', value: channelText(f) },
			...(photoId ? [{ label: 'Photo ID', value: photoId }] : []),
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
		s.keyValues(rows, 130);
		// In two columns, side by side: the page keeps room for a longer signing's rows (an owner's
		// note, a long name) before it must run onto a second.
		const acceptance = [
			...(f.serviceVersion ? [{ label: 'Terms version', value: f.serviceVersion }] : []),
			...flagRows(f)
		];
		const half = Math.ceil(acceptance.length / 2);
		const column = (CONTENT_WIDTH - 18) / 2;
		s.heading('Acceptance', 60);
		s.y -= Math.max(
			s.keyValuesAt(acceptance.slice(0, half), x, column, 130),
			s.keyValuesAt(acceptance.slice(half), x + column + 18, column, 130)
		);
		s.heading('Evidence', 40);
		s.keyValues(
			[{ label: 'Certificate hash', value: f.contentHash, style: { font: 'mono', size: 8 } }],
			130
		);
		s.paragraph(
			`The certificate of completion for this decision carries the same certificate hash and the full record of the signing. This file is sealed with the portal's digital signature: a PDF reader shows it as signed, and any change breaks the seal. Check it at ${o.verifyUrl}.`,
			{ size: 7.5, color: COLOR.muted }
		);
		const files = attached.map((a) => ({ label: a.name, value: a.what, style: { size: 8 } }));
		const about =
			'What each hash on the certificate of completion is of, attached to this PDF (a PDF reader lists them as attachments; pdfdetach -saveall saves them): the SHA-256 of each file is the hash printed for it.';
		const aboutStyle = { size: 7.5, color: COLOR.muted };
		// Kept together, on the next page if it must: a list of files split across pages reads as
		// two lists, the second with no heading.
		s.heading('Attached files', s.textHeight(about, CONTENT_WIDTH, aboutStyle) + files.length * 14);
		s.paragraph(about, aboutStyle, 2);
		s.keyValues(files, 200);
	};
	let pages = 1;
	for (let drawn = 0; ; drawn++) {
		signatureParts(pages);
		const took = pdf.getPageCount() - signaturePage;
		if (took === pages || drawn === 3) break;
		while (pdf.getPageCount() > signaturePage) dropLastPage(pdf);
		s.newPage();
		pages = took;
	}
	if (agreement.length > 0) {
		s.footers(
			`The agreement as shown - application ${f.applicationId} - ref. ${f.reference}`,
			firstAdded,
			signaturePage
		);
	}
	s.footers(`Signature page - application ${f.applicationId} - ref. ${f.reference}`, signaturePage);
	return pdf;
}

/**
 * Takes the last page out of the file, with what was drawn on it: pdf-lib's removePage only
 * unlinks a page from the page tree, and the page and its content would still be written (an
 * earlier draft, hidden in the sealed file). The fonts it used stay: later pages use them.
 */
function dropLastPage(pdf: PDFDocument): void {
	const index = pdf.getPageCount() - 1;
	const page = pdf.getPage(index);
	const contents = page.node.get(PDFName.of('Contents'));
	pdf.removePage(index);
	const streams = contents instanceof PDFArray ? contents.asArray() : [contents];
	for (const ref of streams) if (ref instanceof PDFRef) pdf.context.delete(ref);
	pdf.context.delete(page.ref);
}

/** Pages `from` up to `to` (0-based, `to` not included) as a reader counts them in the file. */
function pagesWord(from: number, to: number): string {
	return to - from === 1 ? `page ${to}` : `pages ${from + 1}–${to}`;
}
