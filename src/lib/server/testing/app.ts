import { randomBytes } from 'node:crypto';
import { testSealKey } from '$lib/server/evidence/testing';
import type { AppContext } from '$lib/server/app';
import { parseConfig } from '$lib/server/config/config';
import { openMemoryDatabase, type Database } from '$lib/server/db';
import { createOnboardingClient } from '$lib/server/onboarding';
import { upstreamCacheFor } from '$lib/server/onboarding/cache';
import { startSandboxServer } from '$lib/server/sandbox/testing';
import { createSession, type NewSession } from '$lib/server/signing/session';

/** What a link's Start records for a test merchant (Dana Whitfield). */
export function testSessionInput(
	applicationId: number,
	officeId = 1207,
	linkId: string | null = null
): NewSession {
	return {
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
	};
}

/**
 * One portal instance's context over a given database, talking to the sandbox at `baseUrl`.
 * Several over one PostgreSQL server are instances side by side (they share the encryption key,
 * as real instances must).
 */
export function testContext(
	database: Database,
	baseUrl: string,
	env: Record<string, string> = {},
	encryptionKey: Buffer = randomBytes(32)
): AppContext {
	const config = parseConfig({
		ONBOARDING_BASE_URL: baseUrl,
		ONBOARDING_TIMEOUT_MS: '2000',
		...env
	});
	return {
		config,
		database,
		db: database.db,
		onboarding: createOnboardingClient({ baseUrl, timeoutMs: config.ONBOARDING_TIMEOUT_MS }),
		upstreamCache: upstreamCacheFor(config),
		encryptionKey,
		// Made on first use: most tests never seal, and an RSA key takes a while to generate.
		seal: async () => testSealKey(),
		operatorApiKey: 'test-operator-key-0123456789',
		sandbox: undefined
	};
}

/**
 * A portal context for server-side tests: its own in-memory database, and the sandbox over real
 * HTTP on loopback (with a database of its own, as the real service would have).
 */
export async function startTestApp(env: Record<string, string> = {}) {
	const sandbox = await startSandboxServer();
	const database = await openMemoryDatabase();
	const ctx = testContext(database, sandbox.baseUrl, env);
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
		(await createSession(ctx.db, testSessionInput(applicationId, officeId, linkId))).session;
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
