// The shape of src/'s import graph (GUIDE.md, "Rules of direction"), read from the sources
// with TypeScript's own pre-processor: every static, type-only and dynamic import counts.
// No file is part of an import cycle, nor is any part of the tree (a module, a top-level
// folder or root file) part of a cycle between parts; and a module is entered from outside
// only through its face, index.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const SRC = resolve('src');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** Each file of src/ (relative) with the files of src/ it imports. */
export function importGraph(): Map<string, string[]> {
  const files = sourceFiles(SRC);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((f) => f.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => resolve(dirname(file), name))
      .filter((target) => known.has(target))
      .map((target) => relative(SRC, target));
    graph.set(relative(SRC, file), [...new Set(targets)]);
  }
  return graph;
}

/**
 * The part of the tree a file belongs to: `modules/<name>`, `pages/<app>` (a web app or the
 * kit), a top-level folder, or itself.
 */
export function partOf(file: string): string {
  const [first, second, third] = file.split('/');
  if (first === 'modules' && second !== undefined) return `modules/${second}`;
  if (first === 'pages' && third !== undefined) return `pages/${second}`;
  return second === undefined ? file : (first as string);
}

/**
 * The imports that cross the pages' lines (GUIDE.md, "Rules of direction"): a web app into
 * another app, the kit into an app, or anything outside pages/ into it but the composition
 * root (app.ts), which registers the apps. An app into the kit is the one way across.
 */
export function pageBreaches(graph: Map<string, string[]>): string[] {
  const breaches: string[] = [];
  for (const [file, targets] of graph) {
    const from = partOf(file);
    for (const target of targets) {
      const to = partOf(target);
      if (!to.startsWith('pages/') || to === from) continue;
      if (to === 'pages/kit' && from.startsWith('pages/')) continue;
      if (!from.startsWith('pages/') && file === 'app.ts' && to !== 'pages/kit') continue;
      breaches.push(`${file} -> ${target}`);
    }
  }
  return breaches.sort();
}

/** The strongly connected components with more than one node (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

test('no file of src/ is part of an import cycle', () => {
  assert.deepEqual(cycles(importGraph()), []);
});

test('no module, folder or root file of src/ is part of a cycle between them', () => {
  const parts = new Map<string, Set<string>>();
  for (const [file, targets] of importGraph()) {
    const from = partOf(file);
    const edges = parts.get(from) ?? new Set<string>();
    for (const target of targets) if (partOf(target) !== from) edges.add(partOf(target));
    parts.set(from, edges);
  }
  const graph = new Map([...parts].map(([k, v]) => [k, [...v]]));
  assert.deepEqual(cycles(graph), []);
});

test('the graph sees what it should: a planted cycle is found', () => {
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts']],
    ['d.ts', ['a.ts']],
  ]);
  assert.deepEqual(cycles(graph), [['a.ts', 'b.ts', 'c.ts']]);
  const files = importGraph();
  assert.ok((files.get('app.ts') ?? []).includes('http/errors.ts'), 'app.ts imports http/');
  assert.ok(files.size > 100, `only ${files.size} files read`);
});

test('each web app is a room of its own: no app imports another, the kit no app, http/ no page', () => {
  assert.deepEqual(pageBreaches(importGraph()), []);
  // The check itself, on planted imports: each breach found, the allowed ways left alone.
  const planted = new Map([
    ['pages/worker/layout.ts', ['pages/company/layout.ts', 'pages/kit/session.ts']],
    ['pages/operator/layout.ts', ['pages/worker/layout.ts']],
    ['pages/kit/session.ts', ['pages/company/session.ts', 'http/errors.ts']],
    ['http/errors.ts', ['pages/kit/session.ts']],
    ['modules/users/users.service.ts', ['pages/company/session.ts']],
    ['app.ts', ['pages/company/dashboard.plugin.ts', 'pages/worker/worker.plugin.ts']],
  ]);
  assert.deepEqual(pageBreaches(planted), [
    'http/errors.ts -> pages/kit/session.ts',
    'modules/users/users.service.ts -> pages/company/session.ts',
    'pages/kit/session.ts -> pages/company/session.ts',
    'pages/operator/layout.ts -> pages/worker/layout.ts',
    'pages/worker/layout.ts -> pages/company/layout.ts',
  ]);
  assert.equal(partOf('pages/kit/session.ts'), 'pages/kit');
  assert.equal(partOf('pages/worker/worker.plugin.ts'), 'pages/worker');
});

const parsed = new Map<string, ts.SourceFile>();
function parse(file: string): ts.SourceFile {
  let source = parsed.get(file);
  if (!source) {
    const text = readFileSync(join(SRC, file), 'utf8');
    source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    parsed.set(file, source);
  }
  return source;
}

const specifierOf = (file: string, node: ts.Expression) =>
  relative(SRC, resolve(dirname(join(SRC, file)), (node as ts.StringLiteral).text));

const isExported = (node: ts.Node) =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

export interface Origin {
  file: string;
  /** A value (function, class, variable) or only a type (interface, type alias). */
  kind: 'value' | 'type';
}

/** The declaration behind a name a file exports (or imports and keeps), through re-exports. */
export function originOf(file: string, name: string, seen = new Set<string>()): Origin | undefined {
  if (seen.has(`${file}#${name}`)) return undefined;
  seen.add(`${file}#${name}`);
  const source = parse(file);
  for (const stmt of source.statements) {
    if (ts.isExportDeclaration(stmt)) {
      const from = stmt.moduleSpecifier && specifierOf(file, stmt.moduleSpecifier);
      if (stmt.exportClause && ts.isNamedExports(stmt.exportClause)) {
        for (const el of stmt.exportClause.elements) {
          if (el.name.text !== name) continue;
          const local = el.propertyName?.text ?? el.name.text;
          return from ? originOf(from, local, seen) : localOrigin(file, local, seen);
        }
      } else if (from && !stmt.exportClause) {
        const found = originOf(from, name, seen);
        if (found) return found;
      }
    }
  }
  return localOrigin(file, name, seen);
}

function localOrigin(file: string, name: string, seen: Set<string>): Origin | undefined {
  for (const stmt of parse(file).statements) {
    if (ts.isImportDeclaration(stmt)) {
      const bindings = stmt.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const el of bindings.elements) {
          if (el.name.text !== name) continue;
          return originOf(
            specifierOf(file, stmt.moduleSpecifier),
            el.propertyName?.text ?? name,
            seen,
          );
        }
      }
      continue;
    }
    const type = ts.isInterfaceDeclaration(stmt) || ts.isTypeAliasDeclaration(stmt);
    const named =
      (type ||
        ts.isFunctionDeclaration(stmt) ||
        ts.isClassDeclaration(stmt) ||
        ts.isEnumDeclaration(stmt)) &&
      stmt.name?.text === name;
    const variable =
      ts.isVariableStatement(stmt) &&
      stmt.declarationList.declarations.some(
        (d) => ts.isIdentifier(d.name) && d.name.text === name,
      );
    if (named || variable) return { file, kind: type ? 'type' : 'value' };
  }
  return undefined;
}

/** Every name a face exports, with where it is declared. */
export function faceExports(face: string): [name: string, origin: Origin | undefined][] {
  const names: string[] = [];
  for (const stmt of parse(face).statements) {
    if (ts.isExportDeclaration(stmt) && stmt.exportClause && ts.isNamedExports(stmt.exportClause)) {
      for (const el of stmt.exportClause.elements) names.push(el.name.text);
    } else if (ts.isExportDeclaration(stmt)) {
      names.push('*');
    } else if (isExported(stmt)) {
      names.push(ts.getNameOfDeclaration(stmt as ts.DeclarationStatement)?.getText() ?? '?');
    }
  }
  return names.map((name) => [name, name === '*' ? undefined : originOf(face, name)]);
}

test('no face hands out a repository: every value it exports is declared outside *.repository.ts', () => {
  const breaches: string[] = [];
  const faces = [...importGraph().keys()].filter((f) => /^modules\/[^/]+\/index\.ts$/.test(f));
  for (const face of faces) {
    for (const [name, origin] of faceExports(face)) {
      if (!origin) breaches.push(`${face} exports ${name}, whose declaration is not found`);
      else if (origin.kind === 'value' && origin.file.endsWith('.repository.ts')) {
        breaches.push(`${face} exports ${name} from ${origin.file}`);
      }
    }
  }
  assert.deepEqual(breaches, []);
  // The follower itself: a name re-exported through a service resolves to its repository.
  assert.deepEqual(originOf('modules/items/item-reads.service.ts', 'QueueRow'), {
    file: 'modules/items/item-reads.repository.ts',
    kind: 'type',
  });
  assert.deepEqual(originOf('modules/items/index.ts', 'pageQueue'), {
    file: 'modules/items/item-reads.service.ts',
    kind: 'value',
  });
});

test('code outside a module enters it only through its index.ts, which names no repository', () => {
  const graph = importGraph();
  const breaches: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const part = partOf(target);
      if (!part.startsWith('modules/') || partOf(file) === part) continue;
      if (target !== `${part}/index.ts`) breaches.push(`${file} -> ${target}`);
    }
    if (/^modules\/[^/]+\/index\.ts$/.test(file)) {
      for (const target of targets) {
        if (target.endsWith('.repository.ts')) breaches.push(`${file} re-exports ${target}`);
      }
    }
  }
  assert.deepEqual(breaches, []);
  const faces = [...graph.keys()].filter((f) => /^modules\/[^/]+\/index\.ts$/.test(f));
  const modules = new Set([...graph.keys()].map(partOf).filter((p) => p.startsWith('modules/')));
  assert.equal(faces.length, modules.size, 'every module has a face');
});

test('every file of a module names its role (README, project layout)', () => {
  const role = /(^|\/)index\.ts$|\.(routes|schemas|service|repository|state|rules|view|jobs)\.ts$/;
  const unnamed = [...importGraph().keys()].filter(
    (f) => f.startsWith('modules/') && !role.test(f),
  );
  assert.deepEqual(unnamed, []);
});
