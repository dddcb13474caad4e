import { randomBytes } from 'node:crypto';
import { testSealKey } from '$lib/server/evidence/testing';
import type { AppContext } from '$lib/server/app';
import { parseConfig } from '$lib/server/config/config';
import { openMemoryDatabase } from '$lib/server/db';
import { createOnboardingClient } from '$lib/server/onboarding';
import { startSandboxServer } from '$lib/server/sandbox/testing';
import { createSession } from '$lib/server/signing/session';

/**
 * A portal context for server-side tests: its own in-memory database, and the sandbox over real
 * HTTP on loopback (with a database of its own, as the real service would have).
 */
export async function startTestApp(env: Record<string, string> = {}) {
	const sandbox = await startSandboxServer();
	const database = await openMemoryDatabase();
	const config = parseConfig({
		ONBOARDING_BASE_URL: sandbox.baseUrl,
		ONBOARDING_TIMEOUT_MS: '2000',
		...env
	});
	const ctx: AppContext = {
		config,
		database,
		db: database.db,
		onboarding: createOnboardingClient({
			baseUrl: sandbox.baseUrl,
			timeoutMs: config.ONBOARDING_TIMEOUT_MS
		}),
		encryptionKey: randomBytes(32),
		get seal() {
			return testSealKey();
		},
		operatorApiKey: 'test-operator-key-0123456789',
		sandbox: undefined
	};
	const control = async (method: string, path: string, body?: unknown) => {
		const res = await fetch(`${sandbox.baseUrl}/_sandbox/${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body)
		});
		const text = await res.text();
		return { status: res.status, body: text ? JSON.parse(text) : null };
	};
	const session = async (applicationId: number, officeId = 1207, linkId: string | null = null) =>
		(
			await createSession(ctx.db, {
				channel: 'link',
				linkId,
				repId: null,
				officeId,
				applicationId,
				businessName: 'Test business',
				ownerFirstName: 'Dana',
				ownerLastName: 'Whitfield',
				ownerEmail: 'dana@example.com',
				ip: '127.0.0.1',
				userAgent: 'vitest'
			})
		).session;
	return {
		ctx,
		sandbox,
		control,
		session,
		async close() {
			await sandbox.close();
			await database.close();
		}
	};
}
