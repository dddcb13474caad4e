// The portal's form actions and endpoints, read from the route tree (src/routes) with the
// TypeScript parser, so that the property tests cover a route the day it is added.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

export interface PageRoute {
	/** SvelteKit's route id, e.g. `/s/[token]`. */
	id: string;
	/** Action names; `default` for a page with a default action. */
	actions: string[];
}

export interface EndpointRoute {
	id: string;
	/** Exported handlers: HTTP methods, and `fallback` for every other method. */
	methods: string[];
}

export interface RouteInventory {
	pages: PageRoute[];
	endpoints: EndpointRoute[];
}

const HANDLERS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'fallback']);

function files(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
		e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]
	);
}

function parse(file: string) {
	return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

const isExported = (node: ts.Node) =>
	ts.canHaveModifiers(node) &&
	(ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** What an expression is once `satisfies`, `as` and parentheses are looked through. */
function unwrap(e: ts.Expression): ts.Expression {
	while (
		ts.isSatisfiesExpression(e) ||
		ts.isAsExpression(e) ||
		ts.isParenthesizedExpression(e) ||
		ts.isTypeAssertionExpression(e)
	) {
		e = e.expression;
	}
	return e;
}

/** The names a module exports, with the initializer of each exported `const`. */
function exportsOf(file: string): Map<string, ts.Expression | undefined> {
	const out = new Map<string, ts.Expression | undefined>();
	for (const stmt of parse(file).statements) {
		if (ts.isFunctionDeclaration(stmt) && isExported(stmt) && stmt.name) {
			out.set(stmt.name.text, undefined);
		} else if (ts.isVariableStatement(stmt) && isExported(stmt)) {
			for (const d of stmt.declarationList.declarations) {
				if (ts.isIdentifier(d.name)) out.set(d.name.text, d.initializer);
			}
		} else if (
			ts.isExportDeclaration(stmt) &&
			stmt.exportClause &&
			ts.isNamedExports(stmt.exportClause)
		) {
			for (const el of stmt.exportClause.elements) out.set(el.name.text, undefined);
		}
	}
	return out;
}

function actionNames(file: string, init: ts.Expression | undefined): string[] {
	const object = init && unwrap(init);
	if (!object || !ts.isObjectLiteralExpression(object)) {
		throw new Error(`${file}: \`actions\` is not an object literal the property tests can read`);
	}
	return object.properties.map((p) => {
		if (!p.name || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) {
			throw new Error(`${file}: an action name is computed; the property tests cannot read it`);
		}
		return p.name.text;
	});
}

/** `src/routes/s/[token]/+page.server.ts` → `/s/[token]`. */
function routeId(root: string, file: string): string {
	const dir = relative(root, file).split(sep).slice(0, -1);
	return '/' + dir.join('/');
}

export function discoverRoutes(root = 'src/routes'): RouteInventory {
	const pages: PageRoute[] = [];
	const endpoints: EndpointRoute[] = [];
	for (const file of files(root).sort()) {
		const name = file.split(sep).at(-1)!;
		if (/^\+page\.server\.(ts|js)$/.test(name)) {
			const exported = exportsOf(file);
			if (exported.has('actions')) {
				pages.push({
					id: routeId(root, file),
					actions: actionNames(file, exported.get('actions'))
				});
			}
		} else if (/^\+server\.(ts|js)$/.test(name)) {
			const methods = [...exportsOf(file).keys()].filter((k) => HANDLERS.has(k));
			endpoints.push({ id: routeId(root, file), methods });
		}
	}
	return { pages, endpoints };
}

/** A route id as a path: groups dropped, each parameter filled by `param(name)`. */
export function pathOf(id: string, param: (name: string) => string): string {
	const parts = id
		.split('/')
		.filter((s) => s !== '' && !/^\(.*\)$/.test(s))
		.map((s) =>
			s.replace(/\[\[?(?:\.\.\.)?([^\]=]+)(?:=[^\]]+)?\]\]?/g, (_, n: string) =>
				encodeURIComponent(param(n))
			)
		);
	return '/' + parts.join('/');
}
