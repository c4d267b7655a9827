// The import boundaries of GUIDE.md ("Rules of direction"), as eslint.config.js states
// them, on imports written into files of the target layout. Those files need not exist:
// the boundary rule reads only the specifier, so they are linted without type
// information (the project service knows only files that tsconfig.json finds on disk).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';

const RULE = '@typescript-eslint/no-restricted-imports';

const eslint = new ESLint({
  cwd: fileURLToPath(new URL('../..', import.meta.url)),
  overrideConfig: { files: ['**/*.ts'], ...tseslint.configs.disableTypeChecked },
});

async function lint(filePath: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath });
  assert.ok(result, `no lint result for ${filePath}`);
  return result.messages;
}

// [file, import, what the message must say]; each import is re-exported so that it is used.
const FORBIDDEN: [string, string, string][] = [
  [
    'src/modules/posts/posts.service.ts',
    "import { findAccount } from '../accounts/accounts.repository.ts';",
    "another module's repository",
  ],
  [
    'src/modules/posts/posts.service.ts',
    "import type { AccountRow } from '../accounts/accounts.repository.ts';",
    "another module's repository",
  ],
  [
    'src/modules/posts/posts.service.ts',
    "import type { FastifyRequest } from 'fastify';",
    'Fastify',
  ],
  ['src/modules/posts/posts.repository.ts', "import { fastify } from 'fastify';", 'Fastify'],
  [
    'src/modules/posts/posts.service.ts',
    "import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';",
    'Fastify',
  ],
  [
    'src/modules/posts/posts.service.ts',
    "import { ReadCache } from '../../http/read-cache.ts';",
    'http/',
  ],
  [
    'src/modules/posts/posts.schemas.ts',
    "import { envelope } from '../../http/errors.ts';",
    'http/',
  ],
  [
    'src/modules/posts/posts.service.ts',
    "import { runPass } from '../../dispatch/loop.ts';",
    'runners',
  ],
  [
    'src/modules/posts/posts.routes.ts',
    "import { insertPost } from './posts.repository.ts';",
    'never a repository',
  ],
  [
    'src/modules/posts/posts.routes.ts',
    "import { listAccounts } from '../accounts/accounts.repository.ts';",
    'never a repository',
  ],
  [
    'src/modules/posts/posts.routes.ts',
    "import { connect } from '../../db/connect.ts';",
    'database',
  ],
  ['src/modules/posts/posts.routes.ts', "import { sql } from 'kysely';", 'database'],
  ['src/schedule/windows.ts', "import type { Database } from '../db/types.ts';", 'schedule/'],
  [
    'src/schedule/windows.ts',
    "import { getAccountRow } from '../modules/accounts/accounts.service.ts';",
    'schedule/',
  ],
  ['src/schedule/windows.ts', "import type { AppContext } from '../context.ts';", 'schedule/'],
  ['src/schedule/windows.ts', "import { sql } from 'kysely';", 'database'],
  ['src/http/auth.ts', "import { verifyKey } from '../modules/keys/keys.service.ts';", 'no module'],
  ['src/http/auth.ts', "import type { Scope } from '../modules/keys/scopes.ts';", 'no module'],
  [
    'src/schemas/common.ts',
    "import { PostOut } from '../modules/posts/posts.schemas.ts';",
    'no module',
  ],
  ['src/http/auth.ts', "import { startLoop } from '../dispatch/loop.ts';", 'runners'],
  ['src/lib/x.ts', "import { envelope } from '../http/errors.ts';", 'lib/'],
  ['src/lib/x.ts', "import { loadConfig } from '../config.ts';", 'lib/'],
  ['src/lib/x.ts', "import type { FastifyReply } from 'fastify';", 'Fastify'],
  ['src/errors.ts', "import type { FastifyError } from 'fastify';", 'errors.ts'],
  // A module is entered from outside through its face only.
  [
    'src/modules/posts/posts.service.ts',
    "import { getAccountRow } from '../accounts/accounts.service.ts';",
    'face',
  ],
  [
    'src/modules/posts/posts.routes.ts',
    "import type { AccountOut } from '../accounts/accounts.schemas.ts';",
    'face',
  ],
  [
    'src/dispatch/loop.ts',
    "import { releaseDue } from '../modules/items/items.service.ts';",
    'face',
  ],
  [
    'src/pages/company/tags.pages.ts',
    "import { createTag } from '../../modules/tags/tags.service.ts';",
    'face',
  ],
  [
    'src/ops/readiness.ts',
    "import { countItems } from '../modules/items/items.service.ts';",
    'face',
  ],
  ['src/app.ts', "import { tagsRoutes } from './modules/tags/tags.routes.ts';", 'face'],
  [
    'src/config.ts',
    "import { DEFAULT_PLANS } from './modules/usage/usage.service.ts';",
    'root files',
  ],
  [
    'src/context.ts',
    "import type { RequestMeter } from './modules/usage/request-meter.jobs.ts';",
    'root files',
  ],
  ['src/access.ts', "import { authenticate } from './http/auth.ts';", 'root files'],
  ['src/context.ts', "import { buildApp } from './app.ts';", 'composition root'],
  ['src/errors.ts', "import { renderError } from './http/errors.ts';", 'errors.ts'],
  [
    'src/media/thumbnails.ts',
    "import { markReady } from '../modules/uploads/uploads.service.ts';",
    'media/',
  ],
  ['src/media/probe/mp4.ts', "import { envelope } from '../../http/errors.ts';", 'media/'],
  ['src/media/blob-store.ts', "import type { Db } from '../db/types.ts';", 'media/'],
  ['src/media/blob-store.ts', "import type { FastifyRequest } from 'fastify';", 'Fastify'],
  ['src/db/connect.ts', "import { apiErrorOf } from '../http/errors.ts';", 'db/'],
  [
    'src/db/migrations/index.ts',
    "import { PLANS } from '../../modules/usage/usage.service.ts';",
    'db/',
  ],
  [
    'src/dispatch/dispatcher.ts',
    "import { claimDue } from '../modules/items/items.repository.ts';",
    'never a repository',
  ],
  ['src/simulator/worker.ts', "import { envelope } from '../http/errors.ts';", 'http/'],
  [
    'src/simulator/worker.ts',
    "import type { TaskRow } from '../modules/workers/tasks.repository.ts';",
    'never a repository',
  ],
  [
    'src/modules/uploads/uploads.service.ts',
    "import { PromMetrics } from '../../ops/prom-metrics.ts';",
    'ops/',
  ],
  ['src/modules/uploads/uploads.service.ts', "import { Counter } from 'prom-client';", 'ops/'],
  ['src/http/auth.ts', "import { Readiness } from '../ops/readiness.ts';", 'ops/'],
  ['src/dispatch/loop.ts', "import { PromMetrics } from '../ops/prom-metrics.ts';", 'ops/'],
  ['src/media/thumbnails.ts', "import { Gauge } from 'prom-client';", 'ops/'],
  ['src/db/connect.ts', "import { Readiness } from '../ops/readiness.ts';", 'db/'],
  [
    'src/ops/readiness.ts',
    "import { countItems } from '../modules/items/items.repository.ts';",
    'never a repository',
  ],
  ['src/ops/readiness.ts', "import { startDispatchLoop } from '../dispatch/loop.ts';", 'runners'],
  // The dashboard is above the modules: their services, never their storage.
  [
    'src/pages/company/tags.pages.ts',
    "import { findTagRow } from '../../modules/tags/tags.repository.ts';",
    'never a repository',
  ],
  [
    'src/pages/company/tags.pages.ts',
    "import type { TagRow } from '../../modules/tags/tags.repository.ts';",
    'never a repository',
  ],
  ['src/pages/company/session.ts', "import { connect } from '../../db/connect.ts';", 'database'],
  ['src/pages/company/posts.pages.ts', "import { sql } from 'kysely';", 'database'],
  [
    'src/pages/company/dashboard.plugin.ts',
    "import { buildApp } from '../../app.ts';",
    'composition root',
  ],
  [
    'src/pages/worker/worker.plugin.ts',
    "import { runPass } from '../../dispatch/loop.ts';",
    'runners',
  ],
  // The operator console, like the dashboard: module faces only, and no other app.
  [
    'src/pages/operator/companies.pages.ts',
    "import { findCompany } from '../../modules/companies/companies.repository.ts';",
    'never a repository',
  ],
  [
    'src/pages/operator/companies.pages.ts',
    "import { createCompany } from '../../modules/companies/companies.service.ts';",
    'face',
  ],
  ['src/pages/operator/session.ts', "import { connect } from '../../db/connect.ts';", 'database'],
  ['src/pages/operator/log.pages.ts', "import { sql } from 'kysely';", 'database'],
  [
    'src/pages/operator/operator.plugin.ts',
    "import { buildApp } from '../../app.ts';",
    'composition root',
  ],
  ['src/pages/operator/layout.ts', "import { page } from '../company/layout.ts';", 'another app'],
  [
    'src/pages/operator/log.pages.ts',
    "import { runPass } from '../../dispatch/loop.ts';",
    'runners',
  ],
  // Each web app is a room of its own: no app imports another, however it climbs.
  ['src/pages/worker/layout.ts', "import { BASE } from '../company/session.ts';", 'another app'],
  [
    'src/pages/worker/worker.plugin.ts',
    "import type { FlashScope } from '../company/flash.ts';",
    'another app',
  ],
  [
    'src/pages/company/dashboard.plugin.ts',
    "import { workerAppPlugin } from '../worker/worker.plugin.ts';",
    'another app',
  ],
  [
    'src/pages/company/users.pages.ts',
    "import { consolePage } from '../../pages/operator/layout.ts';",
    'another app',
  ],
  [
    'src/pages/operator/session.ts',
    "import { sessionOf } from '../worker/layout.ts';",
    'another app',
  ],
  [
    'src/pages/worker/tasks.pages.ts',
    "import { findTasks } from '../../modules/items/task-reads.repository.ts';",
    'never a repository',
  ],
  ['src/pages/worker/layout.ts', "import { connect } from '../../db/connect.ts';", 'database'],
  [
    'src/pages/worker/worker.plugin.ts',
    "import { buildApp } from '../../app.ts';",
    'composition root',
  ],
  // The kit the web apps share imports no app and no module, and nothing below the pages
  // imports them.
  ['src/pages/kit/session.ts', "import { page } from '../company/layout.ts';", 'no app'],
  [
    'src/pages/kit/flash.ts',
    "import { workerPage } from '../../pages/worker/layout.ts';",
    'no app',
  ],
  [
    'src/pages/kit/flash.ts',
    "import { resolveSession } from '../../modules/users/index.ts';",
    'no module',
  ],
  ['src/pages/kit/session.ts', "import { connect } from '../../db/connect.ts';", 'database'],
  ['src/pages/kit/plugin.ts', "import { buildApp } from '../../app.ts';", 'composition root'],
  ['src/pages/kit/assets.ts', "import { runPass } from '../../dispatch/loop.ts';", 'runners'],
  ['src/http/errors.ts', "import { pageHeaders } from '../pages/kit/headers.ts';", 'pages/'],
  ['src/http/auth.ts', "import { page } from '../pages/company/layout.ts';", 'pages/'],
  [
    'src/modules/users/users.service.ts',
    "import { userOf } from '../../pages/company/session.ts';",
    'pages/',
  ],
  ['src/dispatch/loop.ts', "import { page } from '../pages/company/layout.ts';", 'pages/'],
  // The command files' own rule stays in force beside the boundaries.
  [
    'src/cli/key.command.ts',
    "import { createKey } from '../modules/keys/keys.service.ts';",
    'await import',
  ],
];

const ALLOWED: [string, string][] = [
  ['src/modules/posts/posts.routes.ts', "import { createPost } from './posts.service.ts';"],
  ['src/modules/posts/posts.routes.ts', "import { requireScope } from '../../http/auth.ts';"],
  ['src/modules/posts/posts.routes.ts', "import type { FastifyInstance } from 'fastify';"],
  ['src/modules/posts/posts.routes.ts', "import type { PostRow } from './posts.repository.ts';"],
  ['src/modules/posts/posts.routes.ts', "import type { PostsTable } from '../../db/types.ts';"],
  ['src/modules/posts/posts.service.ts', "import { insertPost } from './posts.repository.ts';"],
  ['src/modules/posts/posts.service.ts', "import { getAccountRow } from '../accounts/index.ts';"],
  [
    'src/modules/posts/posts.service.ts',
    "import { nextWindowStart } from '../../schedule/windows.ts';",
  ],
  ['src/modules/posts/posts.service.ts', "import { ApiError } from '../../errors.ts';"],
  ['src/modules/posts/posts.service.ts', "import { prepared } from '../../db/prepared.ts';"],
  ['src/modules/posts/posts.schemas.ts', "import { Page } from '../../schemas/page.ts';"],
  ['src/schedule/windows.ts', "import { secondsToUtcMidnight } from '../lib/clock.ts';"],
  ['src/schedule/windows.ts', "import { toEpochMs } from './local-time.ts';"],
  ['src/schedule/local-time.ts', "import { IANAZone } from 'luxon';"],
  ['src/lib/signing.ts', "import { hmac } from './crypto.ts';"],
  ['src/lib/cursor.ts', "import { ApiError } from '../errors.ts';"],
  ['src/http/auth.ts', "import type { Principal } from '../access.ts';"],
  ['src/errors.ts', "import { newId } from './lib/ids.ts';"],
  ['src/http/auth.ts', "import { ApiError } from '../errors.ts';"],
  ['src/http/errors.ts', "import type { FastifyReply } from 'fastify';"],
  ['src/media/probe/mp4.ts', "import { readBox } from './box.ts';"],
  ['src/media/render/slide-renderer.ts', "import { probe } from '../probe/index.ts';"],
  ['src/media/blob-store.ts', "import { newId } from '../lib/ids.ts';"],
  ['src/media/remote/body.ts', "import { ApiError } from '../../errors.ts';"],
  ['src/db/migrations/index.ts', "import { up } from './0001-foundation.ts';"],
  ['src/dispatch/loop.ts', "import { releaseDue } from '../modules/items/index.ts';"],
  ['src/dispatch/loop.ts', "import { every } from '../lib/periodic.ts';"],
  ['src/simulator/worker.ts', "import { claimTask } from '../modules/workers/index.ts';"],
  ['src/ops/prom-metrics.ts', "import { Registry } from 'prom-client';"],
  ['src/ops/readiness.ts', "import { ping } from '../db/connect.ts';"],
  ['src/ops/ops.routes.ts', "import type { FastifyInstance } from 'fastify';"],
  ['src/ops/ops.routes.ts', "import { ApiError } from '../errors.ts';"],
  ['src/modules/uploads/uploads.service.ts', "import { noopMetrics } from '../../lib/metrics.ts';"],
  ['src/main.ts', "import { PromMetrics } from './ops/prom-metrics.ts';"],
  ['src/pages/company/tags.pages.ts', "import { createTag } from '../../modules/tags/index.ts';"],
  [
    'src/pages/company/tags.pages.ts',
    "import { CreateTagBody } from '../../modules/tags/index.ts';",
  ],
  ['src/pages/company/session.ts', "import type { UserRole } from '../../db/types.ts';"],
  ['src/pages/company/session.ts', "import { isUnstorableText } from '../../db/errors.ts';"],
  ['src/pages/company/dashboard.plugin.ts', "import type { FastifyInstance } from 'fastify';"],
  [
    'src/pages/company/accounts.pages.ts',
    "import { validationError } from '../../http/validation.ts';",
  ],
  [
    'src/pages/operator/companies.pages.ts',
    "import { companyOverview } from '../../modules/operators/index.ts';",
  ],
  ['src/pages/operator/layout.ts', "import { inLayout } from '../kit/session.ts';"],
  [
    'src/pages/operator/session.ts',
    "import type { OperatorSessionStep } from '../../db/types.ts';",
  ],
  ['src/pages/operator/operator.plugin.ts', "import type { FastifyInstance } from 'fastify';"],
  ['src/pages/worker/layout.ts', "import { inLayout } from '../kit/session.ts';"],
  [
    'src/pages/worker/tasks.pages.ts',
    "import { claimTask } from '../../modules/workers/index.ts';",
  ],
  ['src/pages/worker/worker.plugin.ts', "import { randomToken } from '../../lib/ids.ts';"],
  [
    'src/pages/company/schedule.pages.ts',
    "import { parseWindow } from '../../schedule/windows.ts';",
  ],
  ['src/pages/company/flash.ts', "import type { AppContext } from '../../context.ts';"],
  ['src/pages/company/layout.ts', "import { BASE } from './session.ts';"],
  ['src/pages/kit/session.ts', "import { isUnstorableText } from '../../db/errors.ts';"],
  ['src/pages/kit/forms.ts', "import { compileValidator } from '../../http/validation.ts';"],
  ['src/pages/kit/flash.ts', "import { pageCookieOptions } from './session.ts';"],
  ['src/pages/kit/headers.ts', "import type { AppContext } from '../../context.ts';"],
  ['src/pages/kit/plugin.ts', "import type { FastifyInstance } from 'fastify';"],
];

/** The import, then an export of its binding so that nothing is unused. */
function moduleWith(statement: string): string {
  const names = /\{\s*([^}]+?)\s*\}/.exec(statement)?.[1];
  assert.ok(names, `no named import in ${statement}`);
  const exported = statement.startsWith('import type')
    ? `export type { ${names} };`
    : `export { ${names} };`;
  return `${statement}\n${exported}\n`;
}

for (const [file, statement, says] of FORBIDDEN) {
  test(`${file}: ${statement} is a boundary error`, async () => {
    const messages = await lint(file, moduleWith(statement));
    const hits = messages.filter((m) => m.ruleId === RULE);
    assert.equal(hits.length, 1, JSON.stringify(messages, null, 2));
    assert.equal(hits[0]!.severity, 2);
    assert.ok(hits[0]!.message.includes(says), `${hits[0]!.message} should say "${says}"`);
    assert.deepEqual(
      messages.filter((m) => m.ruleId !== RULE),
      [],
      'nothing else should be reported',
    );
  });
}

for (const [file, statement] of ALLOWED) {
  test(`${file}: ${statement} is allowed`, async () => {
    assert.deepEqual(await lint(file, moduleWith(statement)), []);
  });
}

// Which database runs is db/'s concern: a test of it anywhere else is refused, in db/ not.
const DIALECT_TESTS: [string, string, boolean][] = [
  [
    'src/modules/posts/posts.service.ts',
    "export const f = (ctx: { dialect: string }) => ctx.dialect === 'postgres';",
    false,
  ],
  ['src/dispatch/dispatcher.ts', "export const g = (d: string) => d === 'sqlite';", false],
  [
    'src/pages/company/posts.pages.ts',
    'export const h = (c: { dialect: string }) => c.dialect;',
    false,
  ],
  ['src/db/capabilities.ts', "export const f = (d: string) => d === 'postgres';", true],
];

for (const [file, code, allowed] of DIALECT_TESTS) {
  test(`${file}: a dialect test is ${allowed ? 'allowed' : 'refused'} there`, async () => {
    const hits = (await lint(file, `${code}\n`)).filter((m) => m.ruleId === 'no-restricted-syntax');
    if (allowed) assert.deepEqual(hits, []);
    else {
      assert.ok(hits.length >= 1, `nothing refused in ${file}`);
      for (const hit of hits) assert.match(hit.message, /db\/'s concern/);
    }
  });
}
