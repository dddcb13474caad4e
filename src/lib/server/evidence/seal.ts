import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { P12Signer } from '@signpdf/signer-p12';
import { SUBFILTER_ADOBE_PKCS7_DETACHED } from '@signpdf/utils';
import type { PDFDocument } from 'pdf-lib';
import type { P12 } from './p12';

export interface SealOptions {
	/** Shown by a reader as the signature's reason. */
	reason: string;
	/** Where the document can be checked. */
	location: string;
	signingTime: Date;
}

/**
 * Seals a finished document with the portal's key: an invisible PAdES-basic signature
 * (`adbe.pkcs7.detached`, SHA-256) over every byte of the file but the signature itself, so any
 * reader shows it as signed and unmodified, and any later change as broken. The document is
 * written out without object streams, as the placeholder requires.
 */
export async function sealPdf(pdf: PDFDocument, key: P12, opts: SealOptions): Promise<Buffer> {
	pdflibAddPlaceholder({
		pdfDoc: pdf,
		reason: opts.reason,
		contactInfo: opts.location,
		name: key.subject,
		location: opts.location,
		signingTime: opts.signingTime,
		subFilter: SUBFILTER_ADOBE_PKCS7_DETACHED,
		appName: 'signing-portal'
	});
	const unsigned = Buffer.from(await pdf.save({ useObjectStreams: false }));
	const signer = new P12Signer(key.p12, { passphrase: key.passphrase });
	return new SignPdf().sign(unsigned, signer, opts.signingTime);
}
