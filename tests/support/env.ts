import { resolve } from 'node:path';

/**
 * The one server the end-to-end tests run against: the built app on embedded defaults.
 * E2E_PORT moves it (two checkouts testing side by side on one machine).
 */
const port = Number(process.env.E2E_PORT || 4319);

export const E2E = {
	port,
	origin: `http://127.0.0.1:${port}`,
	dir: resolve('.e2e'),
	dataDir: resolve('.e2e/data'),
	log: resolve('.e2e/server.log'),
	operatorKey: 'e2e-operator-key-0123456789abcdef'
};
