import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleCreateRequest } from '../onboarding/fixtures';
import { startSandboxServer, type SandboxServer } from './testing';

describe('startSandboxServer', () => {
	let server: SandboxServer;
	beforeAll(async () => {
		server = await startSandboxServer({ authHeader: 'X-Key', authValue: 'k' });
	});
	afterAll(() => server?.close());

	it('serves the sandbox over HTTP on 127.0.0.1', async () => {
		expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox$/);
		const list = await fetch(`${server.baseUrl}/api/office/1207/application/`, {
			headers: { 'X-Key': 'k' }
		});
		expect(list.status).toBe(200);
		expect(await list.json()).toHaveLength(6);
		expect((await fetch(`${server.baseUrl}/api/office/1207/application/`)).status).toBe(401);
	});

	it('passes request bodies and binary responses through', async () => {
		const created = await fetch(`${server.baseUrl}/api/office/1207/application`, {
			method: 'POST',
			headers: { 'X-Key': 'k', 'content-type': 'application/json' },
			body: JSON.stringify(exampleCreateRequest())
		});
		expect(created.status).toBe(200);
		const { ApplicationID } = (await created.json()) as { ApplicationID: number };
		const pdf = await fetch(`${server.baseUrl}/api/office/1207/pdf/${ApplicationID}`, {
			headers: { 'X-Key': 'k' }
		});
		expect(pdf.headers.get('content-type')).toBe('application/pdf');
		expect(new Uint8Array(await pdf.arrayBuffer()).length).toBeGreaterThan(1000);
	});

	it('lets a hung call go when the client aborts', async () => {
		await fetch(`${server.baseUrl}/_sandbox/faults/paymentmethod`, {
			method: 'PUT',
			body: JSON.stringify({ hang: true })
		});
		const started = Date.now();
		await expect(
			fetch(`${server.baseUrl}/api/office/1207/paymentmethod`, {
				headers: { 'X-Key': 'k' },
				signal: AbortSignal.timeout(200)
			})
		).rejects.toThrow();
		expect(Date.now() - started).toBeLessThan(5000);
		await new Promise((r) => setTimeout(r, 100));
		const log = await fetch(
			`${server.baseUrl}/_sandbox/requests?path=/api/office/1207/paymentmethod`
		);
		const entries = (await log.json()) as { status: number | null }[];
		expect(entries).toHaveLength(1);
		expect(entries[0]!.status).toBe(504);
		await fetch(`${server.baseUrl}/_sandbox/faults`, { method: 'DELETE' });
	});
});
