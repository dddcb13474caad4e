import { spawn } from 'node:child_process';

export interface CliRun {
	code: number | null;
	stdout: string;
	stderr: string;
}

/**
 * Runs `npm run reps -- …` as an operator would, in a child process, with `input` piped to its
 * standard input and `env` as its whole environment (plus PATH and HOME, which npm needs).
 */
export function runRepsCli(
	args: string[],
	opts: { input?: string; env: Record<string, string> }
): Promise<CliRun> {
	return new Promise((resolve, reject) => {
		const child = spawn('npm', ['run', '--silent', 'reps', '--', ...args], {
			cwd: process.cwd(),
			env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...opts.env },
			stdio: ['pipe', 'pipe', 'pipe']
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		child.on('error', reject);
		child.on('close', (code) => resolve({ code, stdout, stderr }));
		child.stdin.end(opts.input ?? '');
	});
}
