import { describe, expect, it } from 'vitest';
import { bodySizeLimit, uploadLimit } from './upload-limit';

describe('the largest file /verify takes', () => {
	it('reads BODY_SIZE_LIMIT as adapter-node does, 512K when unset', () => {
		expect(bodySizeLimit(undefined)).toBe(512 * 1024);
		expect(bodySizeLimit('')).toBe(512 * 1024);
		expect(bodySizeLimit('2048')).toBe(2048);
		expect(bodySizeLimit('9M')).toBe(9 * 1024 * 1024);
		expect(bodySizeLimit('1g')).toBe(1024 ** 3);
		expect(bodySizeLimit('Infinity')).toBe(Infinity);
	});

	it('is 8 MB, or what the body limit leaves for the file, in a round figure', () => {
		expect(uploadLimit(undefined)).toEqual({ bytes: 500 * 1024, words: '500 KB' });
		expect(uploadLimit('9M')).toEqual({ bytes: 8 * 1024 * 1024, words: '8 MB' });
		expect(uploadLimit('Infinity')).toEqual({ bytes: 8 * 1024 * 1024, words: '8 MB' });
		expect(uploadLimit('8M')).toEqual({ bytes: 7 * 1024 * 1024, words: '7 MB' });
		expect(uploadLimit('64K')).toEqual({ bytes: 56 * 1024, words: '56 KB' });
	});
});
