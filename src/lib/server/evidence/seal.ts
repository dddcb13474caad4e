import { constants, privateEncrypt, type KeyObject } from 'node:crypto';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { Signer, SUBFILTER_ADOBE_PKCS7_DETACHED } from '@signpdf/utils';
import forge from 'node-forge';
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
	return new SignPdf().sign(unsigned, new SealSigner(key), opts.signingTime);
}

/** The object identifier forge knows by this name (every one used here is among them). */
function oid(name: string): string {
	const id = forge.pki.oids[name];
	if (typeof id !== 'string') throw new Error(`forge knows no object identifier ${name}`);
	return id;
}

/**
 * @signpdf's P12Signer, with the key opened once and the RSA operation done by OpenSSL. Why not
 * P12Signer itself: on every call it opens the PKCS#12 bundle again and signs with forge's
 * JavaScript RSA, about 240 ms of CPU for the generated 3072-bit key, where the rest of making a
 * certificate costs tens of milliseconds (tests/bench/NOTES.md §21). The CMS is still built by
 * forge as P12Signer builds it: every certificate of the bundle, the same signed attributes in
 * the same order; seal.spec.ts checks the bytes are the same as P12Signer's. Where a bundle holds
 * two certificates for its key, this signs with the first, the one `/verify` knows by its hash
 * (P12Signer took the last); and a bundle whose key is stored unencrypted seals here, where
 * P12Signer read only an encrypted one.
 */
export class SealSigner extends Signer {
	constructor(private readonly key: P12) {
		super();
	}

	override async sign(pdfBuffer: Buffer, signingTime?: Date): Promise<Buffer> {
		const p7 = forge.pkcs7.createSignedData();
		p7.content = forge.util.createBuffer(pdfBuffer.toString('binary'));
		for (const certificate of this.key.certificates) p7.addCertificate(certificate);
		p7.addSigner({
			// forge calls key.sign(md) alone; the key's other parts are never read.
			key: openSslKey(this.key.privateKey) as unknown as forge.pki.rsa.PrivateKey,
			certificate: this.key.certificate,
			digestAlgorithm: oid('sha256'),
			// The order matters for EU validators (as P12Signer's comment says).
			authenticatedAttributes: [
				{ type: oid('contentType'), value: oid('data') },
				{ type: oid('signingTime'), value: (signingTime ?? new Date()) as never },
				{ type: oid('messageDigest') }
			]
		});
		p7.sign({ detached: true });
		return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary');
	}
}

/**
 * A stand-in for forge's RSA private key that signs with OpenSSL: RSASSA-PKCS1-v1_5 is the
 * DigestInfo (the digest's algorithm and value) padded with type-1 padding and raised to the
 * private exponent, which is what `privateEncrypt` does with RSA_PKCS1_PADDING. Deterministic,
 * so the signature is the one forge would have made.
 */
function openSslKey(key: KeyObject) {
	const { asn1 } = forge;
	return {
		sign(md: forge.md.MessageDigest): string {
			const digestInfo = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
				asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
					asn1.create(
						asn1.Class.UNIVERSAL,
						asn1.Type.OID,
						false,
						asn1.oidToDer(oid(md.algorithm)).getBytes()
					),
					asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, '')
				]),
				asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, md.digest().getBytes())
			]);
			const der = Buffer.from(asn1.toDer(digestInfo).getBytes(), 'binary');
			return privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, der).toString('binary');
		}
	};
}
