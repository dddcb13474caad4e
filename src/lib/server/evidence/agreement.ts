import { parseFragment, type DefaultTreeAdapterTypes as T } from 'parse5';

/**
 * The acceptance language as blocks of plain text, for the signed copy's pages: what the
 * merchant read on the agreement page, from the exact sanitized HTML the certificate hashes
 * (sanitize/policy.ts allows only headings, paragraphs, lists, tables, links and inline
 * emphasis). The words and their order are kept; the page's styling is not, and a link's address
 * is written after its text, so that a reader of the paper sees where it pointed.
 */
export type Block =
	| { kind: 'heading'; text: string }
	| { kind: 'text'; text: string }
	| { kind: 'item'; marker: string; depth: number; text: string }
	| { kind: 'table'; head: string[] | null; rows: string[][] }
	| { kind: 'rule' };

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
// Elements that end the text before them and start a block of their own.
const BLOCKS = new Set([
	...HEADINGS,
	'p',
	'ul',
	'ol',
	'li',
	'table',
	'hr',
	'blockquote',
	'div',
	'section',
	'dl',
	'dt',
	'dd',
	'pre'
]);

const isElement = (n: T.ChildNode): n is T.Element => 'tagName' in n;
const isText = (n: T.ChildNode): n is T.TextNode => n.nodeName === '#text';
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const attr = (e: T.Element, name: string) => e.attrs.find((a) => a.name === name)?.value ?? null;

/** An element's inline text: line breaks kept as such, a link's address after its words. */
function inline(nodes: T.ChildNode[]): string {
	let out = '';
	for (const n of nodes) {
		// The source's own line breaks are spaces, as a browser lays them out; only <br> breaks.
		if (isText(n)) out += n.value.replace(/\s+/g, ' ');
		else if (isElement(n)) {
			if (n.tagName === 'br') out += '\n';
			else if (n.tagName === 'a') {
				const words = inline(n.childNodes);
				const href = attr(n, 'href');
				const shown = href?.replace(/^mailto:/, '');
				out += href && shown && squash(words) !== shown ? `${words} (${shown})` : words;
			} else out += inline(n.childNodes);
		}
	}
	return out;
}

/** Inline text squashed as a browser lays it out, keeping the breaks `<br>` makes. */
const flow = (nodes: T.ChildNode[]) => inline(nodes).split('\n').map(squash).join('\n').trim();

function rowsOf(table: T.Element): { head: string[] | null; rows: string[][] } {
	const rows: { cells: string[]; header: boolean }[] = [];
	const walk = (e: T.Element) => {
		for (const c of e.childNodes) {
			if (!isElement(c)) continue;
			if (c.tagName === 'tr') {
				const cells = c.childNodes.filter(isElement).filter((x) => /^t[hd]$/.test(x.tagName));
				rows.push({
					cells: cells.map((x) => flow(x.childNodes)),
					header: cells.length > 0 && cells.every((x) => x.tagName === 'th')
				});
			} else walk(c);
		}
	};
	walk(table);
	const width = Math.max(1, ...rows.map((r) => r.cells.length));
	const pad = (cells: string[]) => [...cells, ...Array<string>(width - cells.length).fill('')];
	const [first, ...rest] = rows;
	if (first?.header) return { head: pad(first.cells), rows: rest.map((r) => pad(r.cells)) };
	return { head: null, rows: rows.map((r) => pad(r.cells)) };
}

export function agreementBlocks(html: string): Block[] {
	const out: Block[] = [];
	const walk = (nodes: T.ChildNode[], depth: number) => {
		let pending: T.ChildNode[] = [];
		const flush = () => {
			const text = flow(pending);
			if (text) out.push({ kind: 'text', text });
			pending = [];
		};
		for (const n of nodes) {
			if (!isElement(n) || !BLOCKS.has(n.tagName)) {
				pending.push(n);
				continue;
			}
			flush();
			const tag = n.tagName;
			if (HEADINGS.has(tag)) {
				const text = flow(n.childNodes);
				if (text) out.push({ kind: 'heading', text });
			} else if (tag === 'hr') out.push({ kind: 'rule' });
			else if (tag === 'table') out.push({ kind: 'table', ...rowsOf(n) });
			else if (tag === 'ul' || tag === 'ol') {
				const start = Number(attr(n, 'start') ?? 1) || 1;
				let i = 0;
				for (const li of n.childNodes) {
					if (!isElement(li) || li.tagName !== 'li') continue;
					const marker = tag === 'ol' ? `${start + i}.` : '•';
					i++;
					// The item's own words, then any list or paragraph inside it, one level in.
					const own = li.childNodes.filter((c) => !isElement(c) || !BLOCKS.has(c.tagName));
					const nested = li.childNodes.filter((c) => isElement(c) && BLOCKS.has(c.tagName));
					out.push({ kind: 'item', marker, depth, text: flow(own) });
					walk(nested, depth + 1);
				}
			} else walk(n.childNodes, depth);
		}
		flush();
	};
	walk(parseFragment(html).childNodes, 0);
	return out;
}

/** The blocks' words, for what needs to know every character drawn (layout's needsUnicode). */
export const blocksText = (blocks: Block[]): string[] =>
	blocks.flatMap((b) =>
		b.kind === 'table'
			? [...(b.head ?? []), ...b.rows.flat()]
			: b.kind === 'rule'
				? []
				: [b.kind === 'item' ? `${b.marker} ${b.text}` : b.text]
	);
