/**
 * The evidence of a signing: the certificate of completion, the signed copy, both sealed with
 * the portal's key, and the check of an uploaded one (`/verify`). See `facts.ts` for the shape
 * of the `session.started` event (emailed link or in person) the certificate reads.
 */
export {
	certificatePdf,
	signedCopyPdf,
	applicationPdfForDecision,
	NotSignedError,
	type DocumentRequest
} from './documents';
export { verifyDocument, verifyReference, type DocumentCheck, type ReferenceCheck } from './verify';
export { offerApplicationPdf, offeredPdf, type PresentedPdf } from './presented';
export { EvidenceNotFoundError, type Audience } from './facts';
export { loadSealKey, registerSealCertificate, type SealKey } from './seal-key';
