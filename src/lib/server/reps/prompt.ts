/** The parts of process.stdin the password prompt uses (a test passes a pipe). */
export interface PasswordInput extends AsyncIterable<Buffer | string> {
	isTTY?: boolean;
	setRawMode?(mode: boolean): unknown;
	setEncoding?(encoding: BufferEncoding): unknown;
	on(event: 'data', listener: (chunk: string) => void): unknown;
	off(event: 'data', listener: (chunk: string) => void): unknown;
	resume(): unknown;
	pause(): unknown;
}

export class PromptAborted extends Error {
	name = 'PromptAborted';
	constructor() {
		super('cancelled');
	}
}

/**
 * Reads a line at a terminal without echoing it. Node has no built-in for this (readline
 * always echoes), and the few lines here are smaller than a dependency.
 */
function readHidden(stdin: PasswordInput, err: { write(s: string): unknown }, prompt: string) {
	err.write(prompt);
	stdin.setRawMode!(true);
	stdin.setEncoding?.('utf8');
	stdin.resume();
	return new Promise<string>((resolve, reject) => {
		let chars: string[] = [];
		const finish = (fn: () => void) => {
			stdin.off('data', onData);
			stdin.setRawMode!(false);
			stdin.pause();
			err.write('\n');
			fn();
		};
		const onData = (chunk: string) => {
			for (const ch of chunk) {
				if (ch === '\r' || ch === '\n' || ch === '\u0004')
					return finish(() => resolve(chars.join('')));
				if (ch === '\u0003') return finish(() => reject(new PromptAborted()));
				if (ch === '\u007f' || ch === '\b') chars = chars.slice(0, -1);
				else if (ch === '\u0015')
					chars = []; // Ctrl+U clears the line, as in a shell
				else if (ch >= ' ') chars.push(ch);
			}
		};
		stdin.on('data', onData);
	});
}

async function readFirstLine(stdin: PasswordInput): Promise<string> {
	const parts: Buffer[] = [];
	for await (const chunk of stdin) parts.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
	return Buffer.concat(parts).toString('utf8').split(/\r?\n/)[0] ?? '';
}

/**
 * A new password: typed twice, unseen, at a terminal; the first line of standard input when it is
 * piped (scripts, tests). The caller validates it.
 */
export async function readPassword(
	stdin: PasswordInput,
	err: { write(s: string): unknown },
	label: string
): Promise<string> {
	if (!stdin.isTTY || !stdin.setRawMode) return readFirstLine(stdin);
	const first = await readHidden(stdin, err, `${label}: `);
	const again = await readHidden(stdin, err, 'Type it again: ');
	if (first !== again) throw new PasswordMismatch();
	return first;
}

export class PasswordMismatch extends Error {
	name = 'PasswordMismatch';
	constructor() {
		super('the two passwords differ; nothing was changed');
	}
}
