import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { databaseProblem } from './problems';

const URL_ = 'postgres://portal:s3cret-pass@db.internal:6543/portal_prod';

describe('why PostgreSQL could not be opened', () => {
	it('says it in our words, with the server, user and database but never the password', () => {
		const cases: [string, RegExp][] = [
			['28P01', /^the PostgreSQL server at db\.internal:6543 refused the password of portal/],
			['3D000', /has no database named portal_prod/],
			['ECONNREFUSED', /^nothing answers at db\.internal:6543: is PostgreSQL running there/],
			['ENOTFOUND', /^the host db\.internal in DATABASE_URL is not known/]
		];
		for (const [code, words] of cases) {
			const text = databaseProblem(Object.assign(new Error('driver text'), { code }), URL_);
			expect(text, code).toMatch(words);
			expect(text, code).toMatch(new RegExp(`\\(${code}\\)\\.$`));
			expect(text, code).not.toContain('s3cret-pass');
			expect(text, code).not.toContain('driver text');
		}
	});

	it('leaves what it does not know, and starts without a URL, to the usual line', () => {
		expect(databaseProblem(Object.assign(new Error(), { code: 'XX000' }), URL_)).toBeNull();
		expect(databaseProblem(new Error('no code'), URL_)).toBeNull();
		expect(databaseProblem(Object.assign(new Error(), { code: '28P01' }), undefined)).toBeNull();
	});

	it('reads what pg really throws for a server that is not there', async () => {
		// Port 9 (discard) has nothing listening on this machine.
		const url = 'postgres://portal:pw@127.0.0.1:9/portal';
		const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
		const err = await client.connect().then(
			() => null,
			(e: unknown) => e
		);
		expect(databaseProblem(err, url)).toMatch(/^nothing answers at 127\.0\.0\.1:9/);
	});
});
