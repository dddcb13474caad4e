import type { DocumentCheck, ReferenceCheck } from './verify';
import { officeTime, utcTime } from './words';

/** A check's answer in plain words, for the /verify pages; no personal data in it. */
export interface Verdict {
	tone: 'good' | 'warn' | 'bad';
	title: string;
	lines: string[];
	details: [string, string][];
}

const KIND = { certificate: 'a certificate of completion', 'signed-copy': 'a signed copy' };

/** A moment as the documents give it: the office's time first, UTC beside it. */
const when = (at: Date, timeZone: string) => `${officeTime(at, timeZone)} (${utcTime(at)})`;

function recordLines(r: ReferenceCheck, timeZone: string): { ok: boolean; lines: string[] } {
	if (!r.found) {
		return { ok: false, lines: ['The signing it names is not in our records.'] };
	}
	const decided = r.outcome === 'accepted' ? 'accepted and signed' : 'declined';
	const base = `The signing it names is in our records: application ${r.applicationId} of office ${r.officeId}, ${decided} ${when(r.decidedAt, timeZone)}.`;
	return r.chainOk
		? {
				ok: true,
				lines: [
					base,
					`Its audit trail of ${r.chainCount} events verifies now: no event was changed, removed or reordered.`
				]
			}
		: {
				ok: false,
				lines: [
					base,
					`Its audit trail no longer verifies: the hash chain breaks at event ${r.chainBrokenAt} of ${r.chainCount}. Ask the operator to look into it.`
				]
			};
}

export function documentVerdict(c: DocumentCheck, timeZone: string): Verdict {
	switch (c.result) {
		case 'not-pdf':
			return {
				tone: 'bad',
				title: 'This is not a PDF',
				lines: [
					'The file is not a PDF document, so it cannot be a certificate or signed copy from this portal.'
				],
				details: []
			};
		case 'unsealed':
			return {
				tone: 'bad',
				title: 'Not sealed',
				lines: [
					'This PDF carries no digital signature that can be read. Every certificate and signed copy from this portal is sealed, so if it is meant to be one of those, it is not the file as the portal made it: printed or saved again as PDF, or rewritten by a PDF program, a file loses its seal, or hides it. Ask for the file as it was downloaded from the portal.',
					// The console and the sign step serve the onboarding service's own PDF, unsealed: a rep
					// who checks one here is told what it is, not only that it is no file of ours.
					'The application PDF itself, as the onboarding service gives it (from the console, or opened before signing), is not sealed: its sealed form is the signed copy.'
				],
				details: []
			};
		case 'tampered':
			return {
				tone: 'bad',
				title: 'Changed after it was sealed',
				lines: [
					`Do not rely on this file: ${c.reason}. Ask whoever gave it to you for the file as it was downloaded from the portal, or ask the sales office named on it to check it against its records.`
				],
				details: []
			};
		case 'foreign':
			return {
				tone: 'bad',
				title: 'Not sealed by this portal',
				lines: [
					`It carries a digital signature by “${c.sealedBy}”, but its certificate (SHA-256 ${c.certSha256.slice(0, 16)}…) is not one of this portal’s keys: a name can be copied, a key cannot. It did not come from here.`
				],
				details: []
			};
		case 'genuine': {
			const what = c.kind ? KIND[c.kind] : 'a document';
			const sealed = `This is ${what} sealed by this portal${c.sealedAt ? ` on ${when(c.sealedAt, timeZone)}` : ''}${c.currentKey ? '' : ' (with a key it used before the current one)'}, and not one byte has changed since.`;
			const records = recordLines(c.records, timeZone);
			const lines = [sealed, ...records.lines];
			let ok = records.ok;
			if (c.records.found && c.contentMatches === false) {
				ok = false;
				lines.push(
					'But our records of the signing no longer give the facts printed on it (its certificate hash differs). Ask the operator to look into it.'
				);
			}
			if (c.records.found && c.trailPrefixIntact === false) {
				ok = false;
				lines.push(
					'But events that were in the trail when it was made are no longer there unchanged.'
				);
			}
			if (ok) lines.push('Our records still give exactly the facts printed on it.');
			return {
				tone: ok ? 'good' : 'warn',
				title: ok ? 'Genuine and intact' : 'Sealed by this portal, but our records disagree',
				lines,
				details: c.stamp
					? [
							['Reference', c.stamp.reference],
							['Certificate hash', c.stamp.contentHash]
						]
					: []
			};
		}
	}
}

export function referenceVerdict(reference: string, r: ReferenceCheck, timeZone: string): Verdict {
	if (!r.found) {
		return {
			tone: 'bad',
			title: 'No such signing on record',
			lines: [
				'We have no signing with this reference. Check it against the document, or upload the document below.'
			],
			details: []
		};
	}
	const records = recordLines(r, timeZone);
	return {
		tone: records.ok ? 'good' : 'warn',
		title: `${r.outcome === 'accepted' ? 'Signed' : 'Declined'}, on record${records.ok ? ', and the trail verifies' : ', but the trail does not verify'}`,
		lines: [
			...records.lines,
			'The certificate hash below must match the one printed on your document. To check the document itself, upload it: its seal shows whether it was changed.'
		],
		details: [
			['Reference', reference],
			['Certificate hash', r.contentHash]
		]
	};
}
