import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config';

/** The problems parseConfig throws for `env`, one per line; fails the test if it throws none. */
function problemsOf(env: Record<string, string>): string {
	try {
		parseConfig(env);
	} catch (err) {
		expect(err).toBeInstanceOf(ConfigError);
		return (err as ConfigError).problems.join('\n');
	}
	throw new Error('parseConfig took every value');
}

describe('configuration', () => {
	it('runs on embedded defaults with nothing set', () => {
		const c = parseConfig({});
		expect(c.sandbox).toBe(true);
		expect(c.onboardingBaseUrl).toBe('http://127.0.0.1:3000/sandbox');
		expect(c.ONBOARDING_AUTH_HEADER).toBe('Authorization');
		expect(c.ONBOARDING_TIMEOUT_MS).toBe(10_000);
		expect(c.LINK_TTL_HOURS).toBe(168);
		expect(c.IDENTITY_MAX_ATTEMPTS).toBe(2);
		expect(c.DATA_DIR).toBe('./data');
	});

	it('uses the real service when a base URL is set', () => {
		const c = parseConfig({ ONBOARDING_BASE_URL: 'https://onboarding.example.com/', PORT: '8080' });
		expect(c.sandbox).toBe(false);
		expect(c.onboardingBaseUrl).toBe('https://onboarding.example.com');
	});

	it('lists every bad value with its setting name', () => {
		const problems = problemsOf({
			ONBOARDING_BASE_URL: 'not a url',
			ONBOARDING_TIMEOUT_MS: 'soon',
			PORT: '70000',
			PORTAL_ENCRYPTION_KEY: 'short',
			DATABASE_URL: 'mysql://x',
			SEAL_P12_PASSPHRASE: 'no bundle to open'
		});
		for (const name of [
			'ONBOARDING_BASE_URL',
			'ONBOARDING_TIMEOUT_MS',
			'PORT',
			'PORTAL_ENCRYPTION_KEY',
			'DATABASE_URL',
			// Meaningless without SEAL_P12_FILE: said in the same list.
			'SEAL_P12_PASSPHRASE: is set, but SEAL_P12_FILE'
		]) {
			expect(problems).toContain(name);
		}
		expect(() => parseConfig({ SEAL_P12_PASSPHRASE: 'x' })).toThrow(
			/SEAL_P12_PASSPHRASE: is set, but SEAL_P12_FILE/
		);
	});

	it('takes an office contact as a name and an email, with a phone if given, or none of it', () => {
		const c = parseConfig({
			OFFICE_CONTACT_NAME: ' Office 1207 sales desk ',
			OFFICE_CONTACT_EMAIL: 'desk@office1207.example',
			OFFICE_CONTACT_PHONE: '(217) 555-0199'
		});
		expect([c.OFFICE_CONTACT_NAME, c.OFFICE_CONTACT_EMAIL, c.OFFICE_CONTACT_PHONE]).toEqual([
			'Office 1207 sales desk',
			'desk@office1207.example',
			'(217) 555-0199'
		]);
		expect(parseConfig({ OFFICE_CONTACT_NAME: '', OFFICE_CONTACT_PHONE: ' ' })).toMatchObject({
			OFFICE_CONTACT_NAME: undefined,
			OFFICE_CONTACT_PHONE: undefined
		});
		expect(() => parseConfig({ OFFICE_CONTACT_NAME: 'Sales desk' })).toThrow(
			/OFFICE_CONTACT_EMAIL: is not set, but OFFICE_CONTACT_NAME is: the office contact needs a name and an email/
		);
		expect(() =>
			parseConfig({ OFFICE_CONTACT_EMAIL: 'desk@example.com', OFFICE_CONTACT_PHONE: '555 0199' })
		).toThrow(
			/OFFICE_CONTACT_NAME: is not set, but OFFICE_CONTACT_EMAIL and OFFICE_CONTACT_PHONE are/
		);
		// Both missing settings in one line: one restart mends it.
		expect(() => parseConfig({ OFFICE_CONTACT_PHONE: '555 0199' })).toThrow(
			/OFFICE_CONTACT_NAME and OFFICE_CONTACT_EMAIL: are not set, but OFFICE_CONTACT_PHONE is/
		);
		// Each value is checked as a rep's is: it goes on the merchant's pages and in emails.
		const problems = problemsOf({
			OFFICE_CONTACT_NAME: '<b>Desk</b>',
			OFFICE_CONTACT_EMAIL: 'not an address',
			OFFICE_CONTACT_PHONE: 'call us'
		});
		expect(problems).toMatch(/OFFICE_CONTACT_NAME: may not contain control characters or < >/);
		expect(problems).toMatch(/OFFICE_CONTACT_EMAIL: must be an email address/);
		expect(problems).toMatch(/OFFICE_CONTACT_PHONE: must be digits/);
	});

	it('treats empty values as unset', () => {
		const c = parseConfig({
			ONBOARDING_BASE_URL: '',
			ONBOARDING_AUTH_VALUE: '  ',
			DATABASE_URL: ''
		});
		expect(c.sandbox).toBe(true);
		expect(c.ONBOARDING_AUTH_VALUE).toBeUndefined();
		expect(c.DATABASE_URL).toBeUndefined();
	});

	it('reads the mail settings, with their defaults, and refuses bad ones', () => {
		const c = parseConfig({ SMTP_URL: 'smtps://user:pass@smtp.example.com:465' });
		expect(c).toMatchObject({
			SMTP_URL: 'smtps://user:pass@smtp.example.com:465',
			OFFICE_TIME_ZONE: 'America/Chicago',
			MAIL_MAX_ATTEMPTS: 8,
			MAIL_RETRY_SECONDS: 60,
			REMINDER_FIRST_DAYS: 3,
			REMINDER_EVERY_DAYS: 2,
			REMINDER_MAX: 3
		});
		expect(parseConfig({ SMTP_URL: '', OFFICE_TIME_ZONE: 'Europe/Dublin' })).toMatchObject({
			SMTP_URL: undefined,
			OFFICE_TIME_ZONE: 'Europe/Dublin'
		});
		const problems = problemsOf({
			SMTP_URL: 'https://smtp.example.com',
			OFFICE_TIME_ZONE: 'Central',
			REMINDER_MAX: 'three'
		});
		for (const name of ['SMTP_URL', 'OFFICE_TIME_ZONE', 'REMINDER_MAX']) {
			expect(problems).toContain(name);
		}
	});

	it('takes one sender in MAIL_FROM, with or without a name, and refuses anything else', () => {
		for (const from of [
			'Signing portal <no-reply@localhost>',
			'no-reply@example.com',
			'"Acme, Inc." <sign@acme.example>'
		]) {
			expect(parseConfig({ MAIL_FROM: from }).MAIL_FROM).toBe(from);
		}
		for (const from of ['not an address', 'Portal <no-reply>', 'a@example.com, b@example.com']) {
			expect(() => parseConfig({ MAIL_FROM: from })).toThrow(
				'MAIL_FROM: must be one sender address, with a name before it if you like: Signing portal <no-reply@example.com>'
			);
		}
	});
});
