import { createHash } from 'node:crypto';
import { findByteRange } from '@signpdf/utils';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/** What a PDF's seal says, judged from the file alone (no records, no trust list). */
export type SealInspection =
	| { kind: 'not-pdf' }
	| { kind: 'unsealed' }
	| { kind: 'broken'; reason: string }
	| { kind: 'sealed'; certSha256: string; subject: string; signedAt: Date | null };

const SIGNING_TIME = '1.2.840.113549.1.9.5';

const UNREADABLE_RANGE = 'its signature’s byte range cannot be read';

function subjectOf(cert: pkijs.Certificate): string {
	return cert.subject.typesAndValues
		.map((tv) => {
			const value = (tv.value.valueBlock as { value?: unknown }).value;
			return typeof value === 'string' ? value : '';
		})
		.filter((v) => v !== '')
		.join(', ');
}

function signingTime(signed: pkijs.SignedData): Date | null {
	const attrs = signed.signerInfos[0]?.signedAttrs?.attributes ?? [];
	const value = attrs.find((a) => a.type === SIGNING_TIME)?.values[0];
	if (value instanceof asn1js.UTCTime || value instanceof asn1js.GeneralizedTime) {
		return value.toDate();
	}
	return null;
}

/**
 * Checks the last signature of a PDF: it must cover every byte of the file but its own value
 * (nothing added after it, no gap), its value must be one CMS SignedData and nothing but zero
 * padding, and the signature must verify over the covered bytes (@signpdf finds the byte range,
 * asn1js and PKIjs parse and verify). The signer is reported by its certificate's SHA-256; whose
 * it is, is for the caller to say.
 */
export async function inspectSeal(input: Uint8Array): Promise<SealInspection> {
	const pdf = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
	if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') return { kind: 'not-pdf' };
	// The typings name this `byteRange`; the code returns every range found as `byteRanges`. It
	// throws on a file with two byte ranges still to be filled in (a signing that never finished,
	// or a file made to look like one): as unreadable as one such range, not a failure of ours.
	let byteRanges: string[][];
	try {
		({ byteRanges } = findByteRange(pdf) as unknown as { byteRanges: string[][] });
	} catch {
		return { kind: 'broken', reason: UNREADABLE_RANGE };
	}
	const last = byteRanges.at(-1);
	if (!last) return { kind: 'unsealed' };
	const range = last.map((n) => (/^\d+$/.test(n) ? Number(n) : NaN));
	const [start, firstLength, second, secondLength] = range as [number, number, number, number];
	if (range.length !== 4 || range.some((n) => !Number.isSafeInteger(n))) {
		return { kind: 'broken', reason: UNREADABLE_RANGE };
	}
	if (second + secondLength !== pdf.length) {
		return { kind: 'broken', reason: 'bytes were added or removed after it was sealed' };
	}
	const hex = pdf.subarray(start + firstLength, second).toString('latin1');
	if (start !== 0 || !/^<[0-9a-fA-F]*>$/.test(hex) || hex.length % 2 !== 0) {
		return { kind: 'broken', reason: 'its signature does not sit where its byte range says' };
	}
	const der = Buffer.from(hex.slice(1, -1), 'hex');
	const parsed = asn1js.fromBER(der);
	if (parsed.offset === -1 || der.subarray(parsed.offset).some((b) => b !== 0)) {
		return { kind: 'broken', reason: 'its signature value has been changed' };
	}
	let signed: pkijs.SignedData;
	try {
		const info = new pkijs.ContentInfo({ schema: parsed.result });
		signed = new pkijs.SignedData({ schema: info.content });
	} catch {
		return { kind: 'broken', reason: 'its signature value has been changed' };
	}
	const data = Buffer.concat([
		pdf.subarray(start, start + firstLength),
		pdf.subarray(second, second + secondLength)
	]);
	let verified: pkijs.SignedDataVerifyResult;
	try {
		verified = await signed.verify({
			signer: 0,
			data: new Uint8Array(data).buffer,
			checkChain: false,
			extendedMode: true
		});
	} catch (err) {
		// PKIjs rejects with the same result object when the digest or signature does not match.
		const result = err as Partial<pkijs.SignedDataVerifyResult>;
		if (result && typeof result === 'object' && 'signatureVerified' in result) {
			return { kind: 'broken', reason: 'its content was changed after it was sealed' };
		}
		return { kind: 'broken', reason: 'its signature cannot be checked' };
	}
	const cert = verified.signerCertificate;
	if (!verified.signatureVerified || !cert) {
		return { kind: 'broken', reason: 'its content was changed after it was sealed' };
	}
	const certDer = Buffer.from(cert.toSchema().toBER(false));
	return {
		kind: 'sealed',
		certSha256: createHash('sha256').update(certDer).digest('hex'),
		subject: subjectOf(cert),
		signedAt: signingTime(signed)
	};
}
