import { dialable } from '$lib/tel';
import { formatTime } from '$lib/time';
/**
 * One email, written once as blocks and rendered twice: as plain text and as simple HTML that
 * reads well on a phone and in mail clients that ignore `<style>` (so styles are inline, and the
 * layout is one centred table column). Every piece of text is escaped here; callers pass plain
 * strings, never markup.
 */

export type Block =
	| { kind: 'p'; text: string; strong?: string }
	| { kind: 'button'; href: string; label: string }
	| { kind: 'quote'; text: string }
	/** A line's `link`: the HTML makes it a mailto: or tel: link (the text version has it as is). */
	| { kind: 'contact'; heading: string; lines: (string | ContactLine)[] }
	/** `htmlOnly`: a fallback for the HTML's button, which the text version has no need of. */
	| { kind: 'small'; text: string; href?: string; htmlOnly?: boolean };

export interface ContactLine {
	text: string;
	link: 'mailto' | 'tel';
}

export interface Email {
	/** The heading, also the HTML document's title. */
	title: string;
	blocks: Block[];
}

export interface Rendered {
	text: string;
	html: string;
}

const ESCAPES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#39;'
};

export function escapeHtml(s: string): string {
	return s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Only our own absolute http(s) addresses belong in an href. */
function safeHref(href: string): string {
	const url = new URL(href);
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		throw new Error('email: a link must be http or https');
	}
	return escapeHtml(url.href);
}

const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const INK = '#1d2433';
const SOFT = '#4a5468';
const BRAND = '#1f4e8c';

function textOf(block: Block): string {
	switch (block.kind) {
		case 'p':
			return block.strong ? block.text.replace('{strong}', block.strong) : block.text;
		case 'button':
			return `${block.label}:\n${block.href}`;
		case 'quote':
			return block.text
				.split('\n')
				.map((line) => `> ${line}`)
				.join('\n');
		case 'contact':
			return [block.heading, ...block.lines.map((l) => `  ${lineText(l)}`)].join('\n');
		case 'small':
			if (block.htmlOnly) return '';
			return block.href ? `${block.text} ${block.href}` : block.text;
	}
}

const lineText = (l: string | ContactLine) => (typeof l === 'string' ? l : l.text);

/** A rep's address or number, linked so that a phone writes or calls with one tap. */
function contactLineHtml(l: string | ContactLine): string {
	if (typeof l === 'string') return escapeHtml(l);
	const href = l.link === 'tel' ? `tel:${dialable(l.text)}` : `mailto:${l.text}`;
	return `<a href="${escapeHtml(href)}" style="color:${BRAND};">${escapeHtml(l.text)}</a>`;
}

function htmlOf(block: Block): string {
	const p = `margin:0 0 16px;font-size:16px;line-height:1.5;color:${INK};`;
	switch (block.kind) {
		case 'p': {
			if (!block.strong) return `<p style="${p}">${escapeHtml(block.text)}</p>`;
			const [before = '', after = ''] = block.text.split('{strong}');
			return `<p style="${p}">${escapeHtml(before)}<strong>${escapeHtml(block.strong)}</strong>${escapeHtml(after)}</p>`;
		}
		case 'button':
			return (
				`<p style="margin:24px 0;"><a href="${safeHref(block.href)}" ` +
				`style="display:inline-block;background:${BRAND};color:#ffffff;font-size:17px;font-weight:600;` +
				`line-height:1.2;text-decoration:none;padding:14px 24px;border-radius:6px;">` +
				`${escapeHtml(block.label)}</a></p>`
			);
		case 'quote':
			return (
				`<blockquote style="margin:0 0 16px;padding:8px 16px;border-left:4px solid #c9d2e3;` +
				`color:${INK};font-size:16px;line-height:1.5;white-space:pre-wrap;">${escapeHtml(block.text)}</blockquote>`
			);
		case 'contact':
			return (
				`<p style="margin:0 0 16px;padding:12px 16px;background:#f1f4f9;border-radius:6px;` +
				`font-size:15px;line-height:1.5;color:${INK};"><strong>${escapeHtml(block.heading)}</strong>` +
				block.lines.map((l) => `<br>${contactLineHtml(l)}`).join('') +
				`</p>`
			);
		case 'small': {
			const link = block.href
				? ` <a href="${safeHref(block.href)}" style="color:${BRAND};word-break:break-all;">${escapeHtml(block.href)}</a>`
				: '';
			return `<p style="margin:0 0 12px;font-size:14px;line-height:1.5;color:${SOFT};overflow-wrap:anywhere;">${escapeHtml(block.text)}${link}</p>`;
		}
	}
}

export function renderEmail(email: Email): Rendered {
	const text = [
		email.title,
		'',
		...email.blocks
			.map(textOf)
			.filter((t) => t !== '')
			.flatMap((t) => [t, ''])
	]
		.join('\n')
		.trimEnd();
	const html = [
		'<!doctype html>',
		'<html lang="en">',
		'<head>',
		'<meta charset="utf-8">',
		'<meta name="viewport" content="width=device-width, initial-scale=1">',
		'<meta name="color-scheme" content="light">',
		`<title>${escapeHtml(email.title)}</title>`,
		'</head>',
		`<body style="margin:0;padding:0;background:#eef1f6;font-family:${FONT};">`,
		'<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#eef1f6;">',
		'<tr><td align="center" style="padding:16px 8px;">',
		'<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background:#ffffff;border-radius:8px;">',
		`<tr><td style="padding:24px 20px;font-family:${FONT};">`,
		`<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:${INK};">${escapeHtml(email.title)}</h1>`,
		...email.blocks.map(htmlOf),
		'</td></tr>',
		'</table>',
		'</td></tr>',
		'</table>',
		'</body>',
		'</html>'
	].join('\n');
	return { text, html };
}

/** A moment in the office's time zone, in the long style, with the zone named (see formatTime). */
export function officeTime(date: Date, timeZone: string): string {
	return formatTime(date, timeZone, 'long');
}
