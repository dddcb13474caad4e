import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The service's application PDF exactly as a signing session was offered it: the signed copy is
 * built from these bytes, so its pages are the ones whose hash the certificate prints. The PDF
 * holds bank details (and whatever else the service prints), so it is kept only encrypted.
 */
export const presentedPdfs = pgTable(
	'presented_pdfs',
	{
		sessionId: uuid('session_id').primaryKey(),
		officeId: integer('office_id').notNull(),
		applicationId: integer('application_id').notNull(),
		sha256: text('sha256').notNull(),
		pages: integer('pages').notNull(),
		/** secretbox of the PDF's bytes in base64. */
		bytesEnc: text('bytes_enc').notNull(),
		offeredAt: ts('offered_at').notNull()
	},
	(t) => [index('presented_pdfs_application').on(t.officeId, t.applicationId)]
);

/**
 * Every certificate the portal has sealed documents with (the generated one on embedded defaults,
 * each instance's, the operator's, and earlier ones after a renewal), so that `/verify` still
 * recognizes a document sealed before the key changed.
 */
export const sealCertificates = pgTable('seal_certificates', {
	/** SHA-256 of the certificate's DER. */
	sha256: text('sha256').primaryKey(),
	pem: text('pem').notNull(),
	subject: text('subject').notNull(),
	firstUsedAt: ts('first_used_at').notNull().defaultNow()
});
