import { resolve } from 'node:path';

/** The one server the end-to-end tests run against: the built app on embedded defaults. */
export const E2E = {
	port: 4319,
	origin: 'http://127.0.0.1:4319',
	dir: resolve('.e2e'),
	dataDir: resolve('.e2e/data'),
	log: resolve('.e2e/server.log'),
	operatorKey: 'e2e-operator-key-0123456789abcdef'
};
