// The reps of the end-to-end run: the demo rep the portal seeds on embedded defaults (its
// password generated into the data folder), and four added with `npm run reps` before the server
// starts (tests/support/server.js).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Browser, type Page, type ViewportSize } from '@playwright/test';
import { E2E } from './env';
import { noScriptContext, ready } from './flow';

export interface TestRep {
	email: string;
	name: string;
	phone: string;
	officeId: number;
	repNo: number;
	password: () => string;
}

const ADDED_PASSWORD = 'e2e rep pass phrase, long enough';

export const REPS = {
	/** Rep 31 of office 1207: the RepNo of the test applications (exampleCreateRequest). */
	sam: {
		email: 'sam.ortiz@office1207.example',
		name: 'Sam Ortiz',
		phone: '(217) 555-0100',
		officeId: 1207,
		repNo: 31,
		password: () => readFileSync(resolve(E2E.dataDir, 'demo-rep-password'), 'utf8').trim()
	},
	/** Rep 47 of office 1207; its sign-in is the one the lockout test locks. */
	riley: {
		email: 'riley.lockwood@office1207.example',
		name: 'Riley Lockwood',
		phone: '(217) 555-0147',
		officeId: 1207,
		repNo: 47,
		password: () => ADDED_PASSWORD
	},
	/** A rep of another office. */
	alex: {
		email: 'alex.moreno@office3300.example',
		name: 'Alex Moreno',
		phone: '(312) 555-0105',
		officeId: 3300,
		repNo: 5,
		password: () => ADDED_PASSWORD
	},
	/** Another rep of office 3300: the one whose password the password-change test changes. */
	jordan: {
		email: 'jordan.blake@office3300.example',
		name: 'Jordan Blake',
		phone: '(312) 555-0106',
		officeId: 3300,
		repNo: 6,
		password: () => ADDED_PASSWORD
	},
	/** A rep of office 3300 whose password the operator set (temporary): never signed in before. */
	casey: {
		email: 'casey.nguyen@office3300.example',
		name: 'Casey Nguyen',
		phone: '(312) 555-0107',
		officeId: 3300,
		repNo: 7,
		password: () => ADDED_PASSWORD
	}
} satisfies Record<string, TestRep>;

/** Signs in through the form, as a rep would, and lands on the console. */
export async function signIn(page: Page, rep: TestRep) {
	await page.goto('/rep/login');
	await ready(page);
	await page.getByLabel('Email').fill(rep.email);
	await page.getByLabel('Password').fill(rep.password());
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page).toHaveURL(/\/rep$/);
	await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
}

export const TABLET = { width: 820, height: 1180 };

/** A page signed in as `rep`, in a context of its own: at tablet size and with script unless told. */
export async function repPage(
	browser: Browser,
	rep: TestRep,
	{ viewport = TABLET, script = true }: { viewport?: ViewportSize; script?: boolean } = {}
) {
	const context = script
		? await browser.newContext({ viewport })
		: await noScriptContext(browser, { viewport });
	const page = await context.newPage();
	await signIn(page, rep);
	return page;
}

/** A tab in the background does not refresh itself (refresh.svelte.ts): this one is made so. */
export const leftInBackground = (page: Page) =>
	page.evaluate(() =>
		Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' })
	);

/** The console's entry of an application. */
export const consoleEntry = (page: Page, applicationId: number) =>
	page.locator(`li[data-application="${applicationId}"]`);

export const appPath = (applicationId: number) => `/rep/applications/${applicationId}`;

/**
 * The application page's notice after a send: the email queued, or already sent by the time the
 * page shows it (the outbox is quick here).
 */
export const SENT_NOTICE =
	/^(The link email is queued\. The Email section below says when it goes out\.|The link was emailed to \S+\.)$/;

/** The application page's send button, whichever its words (no link, one emailed, one not). */
export const SEND_LINK = /^(Send link|Resend link|Email a new link)$/;

/** On the application's page: the attestation, then "Hand to merchant". */
export async function handOver(rep: Page, applicationId: number, id = { type: '', last4: '' }) {
	await rep.goto(appPath(applicationId));
	await ready(rep);
	await rep.getByLabel('I have checked the signer’s photo ID').check();
	if (id.type) await rep.getByLabel('ID type, such as driver’s license (optional)').fill(id.type);
	if (id.last4) await rep.getByLabel('Last four characters of the ID (optional)').fill(id.last4);
	await rep.getByRole('button', { name: 'Hand to merchant' }).click();
	await expect(rep).toHaveURL(/\/sign\/(terms|identity|sign)$/);
	await expect(rep.getByRole('button', { name: 'Return to rep' })).toBeVisible();
}

/**
 * The newest mail to `to` about `business` in the development mailbox, and the path of the
 * signing link in it. (Every test shop has the same owner address, and a reminder sent "as if
 * later" sorts first: the subject tells the mails apart.)
 */
export async function mailTo(page: Page, to: string, business: string) {
	await page.goto('/dev/mailbox');
	const mail = page
		.locator('article')
		.filter({ hasText: `To ${to}` })
		.filter({ hasText: `Please review and sign: ${business}` })
		.first();
	await expect(mail).toBeVisible();
	const text = await mail.locator('pre').innerText();
	const url = text.match(/https?:\/\/\S+\/s\/[A-Za-z0-9_-]{43}/)?.[0];
	expect(url, text).toBeTruthy();
	return { text, path: new URL(url!).pathname };
}
