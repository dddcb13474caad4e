import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { humanize } from './pdf';
import { API, useSandbox } from './spec-helpers';

const h = useSandbox();

async function pdfText(applicationId: number) {
	const res = await h.call('GET', `${API}/pdf/${applicationId}`);
	expect(res.status).toBe(200);
	expect(res.headers.get('content-type')).toBe('application/pdf');
	const bytes = new Uint8Array(await res.arrayBuffer());
	expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
	const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: false });
	return text;
}

describe('GET pdf', () => {
	it('is a multi-page PDF of every group, with page numbers', async () => {
		const pages = await pdfText(50001);
		expect(pages.length).toBeGreaterThan(1);
		pages.forEach((p, i) => expect(p).toContain(`Page ${i + 1} of ${pages.length}`));
		const all = pages.join('\n');
		for (const heading of [
			'Merchant application 50001',
			'Business names and addresses',
			'Business profile',
			'Owners and officers',
			'Site survey',
			'Consolidated billing',
			'Charge card network',
			'Other fees',
			'Gateway merchants',
			'Billing service',
			'Equipment setup',
			'Internet and mobile addendum',
			'Account updater'
		]) {
			expect(all).toContain(heading);
		}
		// The programs the interface carries as null are not printed as "Not elected": the terms
		// may present one of them (the Next Day Funding addendum).
		expect(all).not.toContain('Not elected');
		expect(all).not.toContain('Next day funding');
		expect(all).toContain('Blue Heron Bakery LLC');
		expect(all).toContain('Dana');
		expect(all).toContain('Countertop terminal T2');
	});

	it('masks SSNs and the bank account to the last four', async () => {
		const all = (await pdfText(50002)).join('\n');
		expect(all).toContain('***-**-2201');
		expect(all).toContain('***-**-3302');
		expect(all).not.toContain('900782201');
		expect(all).toContain('******9934');
		expect(all).not.toContain('7720019934');
		expect(all).toContain('Priya');
	});

	it('draws names WinAnsi cannot encode (Łukasz)', async () => {
		const all = (await pdfText(50005)).join('\n');
		expect(all).toContain('Lukasz');
	});

	it('404 for an unknown application', async () => {
		expect((await h.call('GET', `${API}/pdf/59999`)).status).toBe(404);
	});

	it('spells out field names', () => {
		expect(humanize('Mnthly_Vol_Avg')).toBe('Monthly volume avg');
		expect(humanize('Ownr1_DOB')).toBe('Owner 1 date of birth');
		expect(humanize('GM_PmntGtwyVTerm_Mon_Fee')).toBe(
			'Payment gateway virtual terminal monthly fee'
		);
	});
});
