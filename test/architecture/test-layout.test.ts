// The layout of test/ (README, "Project layout"): a test of src/x/y.ts lives under test/x/
// (a module's under test/modules/<module>/), a test of a root file such as src/config.ts
// under test/config/, of the SDK or the deployment files under test/sdk/ and test/deploy/;
// the suites that cut across the tree have folders of their own; helpers live in
// test/helpers (or beside their tests as *.helpers.ts) and fixtures in test/fixtures. Tests
// enter a module through its face, index.ts, except the module's own tests in its folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve('.');
const TEST = resolve('test');

/** Folders of test/ that mirror no folder of src/. */
const OWN_FOLDERS = new Set(['architecture', 'security', 'e2e', 'replicas', 'sdk', 'deploy']);
/** Where what is not a test lives. */
const SUPPORT = new Set(['helpers', 'fixtures']);

/**
 * Imports past a face that are not yet through it: the state machine's moves, which tests use
 * to put items in a state no request reaches as quickly. The list may only shrink.
 */
const PAST_FACES_KNOWN = [
  'test/dispatch/release-batch.test.ts -> src/modules/items/items.state.ts',
  'test/e2e/post-actions.e2e.test.ts -> src/modules/items/items.state.ts',
  'test/modules/analytics/queue-analytics.test.ts -> src/modules/items/items.state.ts',
  'test/modules/posts/posts-edit.test.ts -> src/modules/items/items.state.ts',
  'test/modules/posts/posts-list.test.ts -> src/modules/items/items.state.ts',
  'test/pages/company/post-actions.test.ts -> src/modules/items/items.state.ts',
];

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else out.push(relative(ROOT, path));
  }
  return out;
}

/** What a file of test/ does wrong by its place alone (nothing when it is where it belongs). */
function misplaced(file: string, srcExists: (path: string) => boolean): string | null {
  const parts = file.split('/').slice(1);
  const [top] = parts;
  const folders = parts.slice(0, -1);
  const name = parts[parts.length - 1] as string;
  if (top !== undefined && SUPPORT.has(top)) {
    return top === 'helpers' && name.endsWith('.test.ts') ? 'a test among the helpers' : null;
  }
  if (!name.endsWith('.test.ts') && !name.endsWith('.helpers.ts'))
    return 'neither a test nor beside one';
  if (folders.length === 0) return 'at the top of test/';
  if (OWN_FOLDERS.has(top as string)) return null;
  if (folders.length === 1 && srcExists(`src/${top}.ts`)) return null;
  if (folders[0] === 'modules' && folders.length === 1) return 'not in its module’s folder';
  const mirrored = `src/${folders.join('/')}`;
  return srcExists(mirrored) ? null : `mirrors no ${mirrored}/`;
}

/** Each file of test/ whose place is wrong, with why. */
function layoutBreaches(list: string[], srcExists: (path: string) => boolean): string[] {
  return list.flatMap((file) => {
    const why = misplaced(file, srcExists);
    return why === null ? [] : [`${file}: ${why}`];
  });
}

/** The imports of a test file into a module's inner files from outside the module's folder. */
function pastFaces(file: string, text: string): string[] {
  const own = /^test\/modules\/([^/]+)\//.exec(file)?.[1];
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => relative(ROOT, resolve(ROOT, dirname(file), name)))
    .filter((target) => {
      const inner = /^src\/modules\/([^/]+)\/(.+)$/.exec(target);
      return inner !== null && inner[2] !== 'index.ts' && inner[1] !== own;
    })
    .map((target) => `${file} -> ${target}`);
}

const onDisk = (path: string) => existsSync(resolve(ROOT, path));

test('every file of test/ sits where the layout puts it', () => {
  assert.deepEqual(layoutBreaches(files(TEST), onDisk), []);
});

test('the layout check sees planted files out of place', () => {
  const planted = [
    'test/stray.test.ts',
    'test/unit/rules.test.ts',
    'test/modules/posts.test.ts',
    'test/modules/nosuch/nosuch.test.ts',
    'test/pages/nosuch/page.test.ts',
    'test/helpers/app.test.ts',
    'test/lib/notes.ts',
    // Where each kind belongs: left alone.
    'test/modules/posts/posts.test.ts',
    'test/pages/company/calendar.test.ts',
    'test/pages/worker/worker-page.helpers.ts',
    'test/config/storage-config.test.ts',
    'test/security/security.test.ts',
    'test/helpers/app.ts',
    'test/fixtures/media/clip.mp4',
  ];
  assert.deepEqual(layoutBreaches(planted, onDisk), [
    'test/stray.test.ts: at the top of test/',
    'test/unit/rules.test.ts: mirrors no src/unit/',
    'test/modules/posts.test.ts: not in its module’s folder',
    'test/modules/nosuch/nosuch.test.ts: mirrors no src/modules/nosuch/',
    'test/pages/nosuch/page.test.ts: mirrors no src/pages/nosuch/',
    'test/helpers/app.test.ts: a test among the helpers',
    'test/lib/notes.ts: neither a test nor beside one',
  ]);
});

test('tests enter a module through its face, but for its own tests', () => {
  const found = files(TEST)
    .filter((file) => file.endsWith('.ts') && !file.startsWith('test/fixtures/'))
    .flatMap((file) => pastFaces(file, readFileSync(file, 'utf8')))
    .sort();
  assert.deepEqual(found, PAST_FACES_KNOWN);
});

test('the face check sees planted imports past a face', () => {
  const code = [
    "import { a } from '../../src/modules/posts/posts.service.ts';",
    "import type { B } from '../../src/modules/items/items.repository.ts';",
    "const c = await import('../../src/modules/tags/tags.service.ts');",
    "import { d } from '../../src/modules/items/index.ts';",
    "import { e } from '../../src/lib/ids.ts';",
  ].join('\n');
  assert.deepEqual(pastFaces('test/http/planted.test.ts', code), [
    'test/http/planted.test.ts -> src/modules/posts/posts.service.ts',
    'test/http/planted.test.ts -> src/modules/items/items.repository.ts',
    'test/http/planted.test.ts -> src/modules/tags/tags.service.ts',
  ]);
  // A module's own tests may reach inside it, and only it.
  const own = code.replace(/\.\.\/\.\.\//g, '../../../');
  assert.deepEqual(pastFaces('test/modules/items/planted.test.ts', own), [
    'test/modules/items/planted.test.ts -> src/modules/posts/posts.service.ts',
    'test/modules/items/planted.test.ts -> src/modules/tags/tags.service.ts',
  ]);
});
