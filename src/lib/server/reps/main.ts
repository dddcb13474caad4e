// The entry of `npm run reps` (run by tsx; see cli.ts).
import { runCli } from './cli';

process.exitCode = await runCli({
	args: process.argv.slice(2),
	env: process.env,
	stdin: process.stdin,
	out: process.stdout,
	err: process.stderr
});
