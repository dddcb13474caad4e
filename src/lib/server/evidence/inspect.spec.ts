import { describe, expect, it } from 'vitest';
import { inspectSeal } from './inspect';

/** A byte range as @signpdf writes it before signing: its numbers still to be filled in. */
const PLACEHOLDER = '/ByteRange [0 /********** /********** /**********]';

const pdf = (...objects: string[]) =>
	Buffer.from(
		`%PDF-1.7\n${objects.map((o, i) => `${i + 1} 0 obj\n<< ${o} >>\nendobj\n`).join('')}%%EOF\n`,
		'latin1'
	);

describe('a file uploaded to /verify whose signature was never filled in', () => {
	it('with one placeholder: a seal whose byte range cannot be read', async () => {
		expect(await inspectSeal(pdf(`/Type /Sig ${PLACEHOLDER}`))).toEqual({
			kind: 'broken',
			reason: 'its signature’s byte range cannot be read'
		});
	});

	it('with two placeholders: the same answer, not an error (@signpdf throws on two)', async () => {
		const twice = pdf(`/Type /Sig ${PLACEHOLDER}`, `/Type /Sig ${PLACEHOLDER}`);
		expect(await inspectSeal(twice)).toEqual({
			kind: 'broken',
			reason: 'its signature’s byte range cannot be read'
		});
	});
});
