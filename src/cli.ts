// The `slotline` command: the service and its operator tasks.
import { Command, Option } from 'commander';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { openContext } from './bootstrap.ts';
import type { AppContext } from './context.ts';
import { connect, migrate } from './db/connect.ts';
import { serve } from './main.ts';
import {
  CompanyError,
  createCompany,
  listCompanies,
  updateCompany,
} from './modules/companies/companies.service.ts';
import {
  createKey,
  KeyError,
  listKeys,
  parseScopes,
  revokeKey,
} from './modules/keys/keys.service.ts';
import { createPack, importImages, WorkspaceError } from './modules/workspace/workspace.service.ts';
import { seedDemo } from './cli/seed.ts';
import { releaseDue } from './dispatch/dispatcher.ts';
import { startDispatchLoop } from './dispatch/loop.ts';
import { ApprovalError, approve, reject } from './modules/approvals/approvals.service.ts';

/** Errors an operator can fix; printed without a stack trace. */
const OPERATOR_ERRORS = [ConfigError, CompanyError, KeyError, WorkspaceError, ApprovalError];

function print(json: boolean, value: unknown, text: string): void {
  console.log(json ? JSON.stringify(value, null, 2) : text);
}

async function withContext<T>(fn: (ctx: AppContext, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const opened = await openContext(config);
  try {
    return await fn(opened.ctx, config);
  } finally {
    await opened.close();
  }
}

function onOff(value: string): boolean {
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new CompanyError(`expected "on" or "off" (got "${value}")`);
}

export function buildCli(): Command {
  const program = new Command('slotline')
    .description('Slotline publishing service')
    .showHelpAfterError();

  program
    .command('serve', { isDefault: true })
    .description('run the HTTP service (PORT, DATA_DIR, DATABASE_URL)')
    .action(async () => serve(loadConfig()));

  program
    .command('migrate')
    .description('apply pending database migrations')
    .option('--json', 'machine-readable output')
    .action(async (o: { json?: boolean }) => {
      const config = loadConfig();
      const handle = connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
      try {
        const applied = await migrate(handle.db);
        print(
          !!o.json,
          { applied },
          applied.length ? `applied: ${applied.join(', ')}` : 'up to date',
        );
      } finally {
        await handle.close();
      }
    });

  program
    .command('dispatch')
    .description('run the release dispatcher alone (PostgreSQL allows several at once)')
    .option('--once', 'one pass, then exit')
    .option('--at <iso>', 'with --once: release what is due at this instant (RFC 3339)')
    .option('--json', 'machine-readable output')
    .action(async (o: { once?: boolean; at?: string; json?: boolean }) => {
      /** RFC 3339 with an offset: a local time would leave the instant ambiguous. */
      const dispatchInstant = (value: string): Date => {
        const m =
          /^(\d{4})-(\d{2})-(\d{2})[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(
            value,
          );
        const ms = Date.parse(value);
        // Date.parse takes 2026-02-30 for March 2; the calendar does not.
        const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
        if (!m || Number.isNaN(ms) || day?.getUTCDate() !== Number(m[3])) {
          throw new ConfigError(
            `--at must be an RFC 3339 date-time with an offset, such as 2026-03-04T08:00:00Z (got "${value}")`,
          );
        }
        return new Date(ms);
      };
      const at = o.at === undefined ? null : dispatchInstant(o.at);
      if (at && !o.once) throw new ConfigError('--at needs --once (a fixed clock for one pass)');
      return withContext(async (ctx, config) => {
        if (o.once) {
          const r = await releaseDue(ctx, at ?? ctx.clock.now());
          print(!!o.json, r, `released ${r.released} item(s) across ${r.accounts} account(s)`);
          return;
        }
        const loop = startDispatchLoop(ctx, config.dispatchIntervalMs || 15_000, {
          onPass: (r) => r.released > 0 && print(!!o.json, r, `released ${r.released} item(s)`),
          onError: (err) =>
            console.error(`slotline: dispatch pass failed: ${(err as Error).message}`),
        });
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        await loop.stop();
      });
    });

  const company = program.command('company').description('manage companies');
  company
    .command('create')
    .requiredOption('--name <name>', 'company name')
    .option('--plan <plan>', 'plan name (default: DEFAULT_PLAN)')
    .option('--timezone <tz>', 'default worker timezone for new accounts (IANA)')
    .option('--description <text>')
    .option('--website <url>')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx, config) => {
        const c = await createCompany(ctx.db, ctx.clock, config.plans, {
          name: o.name,
          plan: o.plan ?? config.defaultPlan,
          defaultTimezone: o.timezone,
          description: o.description,
          website: o.website,
        });
        print(!!o.json, c, `created company ${c.companyId} (${c.name}, plan ${c.plan})`);
      }),
    );
  company
    .command('update <companyId>')
    .option('--plan <plan>', 'plan name')
    .option('--platformB-feed-posts <onoff>', 'allow platformB feed posts (on|off)')
    .option('--timezone <tz>', 'default worker timezone for new accounts')
    .option('--name <name>')
    .option('--description <text>')
    .option('--website <url>')
    .option('--json', 'machine-readable output')
    .action(async (companyId: string, o) =>
      withContext(async (ctx, config) => {
        const c = await updateCompany(ctx.db, ctx.clock, config.plans, companyId, {
          plan: o.plan,
          platformBFeedPosts:
            o.platformBFeedPosts === undefined ? undefined : onOff(o.platformBFeedPosts),
          defaultTimezone: o.timezone,
          name: o.name,
          description: o.description,
          website: o.website,
        });
        print(!!o.json, c, `updated company ${c.companyId}`);
      }),
    );
  company
    .command('list')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx) => {
        const list = await listCompanies(ctx.db);
        print(!!o.json, list, list.map((c) => `${c.companyId}  ${c.plan}  ${c.name}`).join('\n'));
      }),
    );

  const key = program.command('key').description('manage API keys');
  key
    .command('create')
    .requiredOption('--company <companyId>')
    .requiredOption('--scopes <scopes>', 'comma-separated scopes, e.g. posts:read,posts:write')
    .option('--name <name>', 'label for the key')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx) => {
        const k = await createKey(ctx.db, ctx.clock, {
          companyId: o.company,
          scopes: parseScopes(o.scopes),
          name: o.name,
        });
        print(
          !!o.json,
          k,
          `created key ${k.keyId} (${k.scopes.join(',')})\n${k.secret}\nStore it now: it is not shown again.`,
        );
      }),
    );
  key
    .command('list')
    .option('--company <companyId>')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx) => {
        const keys = await listKeys(ctx.db, o.company ?? null);
        print(
          !!o.json,
          keys,
          keys
            .map(
              (k) =>
                `${k.keyId}  sl_${k.prefix}_…  ${k.companyId}  ${k.scopes.join(',')}${k.revokedAt ? '  revoked' : ''}`,
            )
            .join('\n'),
        );
      }),
    );
  key
    .command('revoke <keyId>')
    .option('--json', 'machine-readable output')
    .action(async (keyId: string, o) =>
      withContext(async (ctx) => {
        const k = await revokeKey(ctx.db, ctx.clock, keyId);
        print(!!o.json, k, `revoked key ${k.keyId}`);
      }),
    );

  const workspace = program.command('workspace').description('manage workspace images');
  workspace
    .command('import <files...>')
    .requiredOption('--company <companyId>')
    .requiredOption('--folder <name>', 'folder name (created when new)')
    .option('--json', 'machine-readable output')
    .action(async (files: string[], o) =>
      withContext(async (ctx) => {
        const r = await importImages(ctx, o.company, o.folder, files);
        print(!!o.json, r, `imported ${r.imageIds.length} image(s) into folder ${r.folderId}`);
      }),
    );
  const pack = workspace.command('pack').description('image packs');
  pack
    .command('create')
    .requiredOption('--company <companyId>')
    .requiredOption('--folder <folderId>')
    .requiredOption('--name <name>')
    .requiredOption('--images <ids>', 'comma-separated image ids of the folder')
    .addOption(new Option('--fit <fit>', 'image fit').choices(['fit', 'fill']).default('fill'))
    .option('--use-once', 'use each image once')
    .option('--description <text>')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx) => {
        const r = await createPack(ctx, o.company, {
          folderId: o.folder,
          name: o.name,
          imageIds: String(o.images)
            .split(',')
            .map((s: string) => s.trim())
            .filter(Boolean),
          imageFit: o.fit,
          useOnce: !!o.useOnce,
          description: o.description,
        });
        print(!!o.json, r, `created pack ${r.packId}`);
      }),
    );

  for (const [name, fn, verb] of [
    ['approve', approve, 'approved'],
    ['reject', reject, 'rejected'],
  ] as const) {
    program
      .command(name)
      .description(`${name} a post's items waiting for approval`)
      .requiredOption('--post <postId>')
      .option('--account <accountId>', 'only this account of the post')
      .option('--json', 'machine-readable output')
      .action(async (o) =>
        withContext(async (ctx) => {
          const r = await fn(ctx, { postId: o.post, accountId: o.account });
          print(
            !!o.json,
            r,
            `${verb} ${r.changed.length} item(s) of post ${r.postId}; post is now ${r.postStatus}`,
          );
        }),
      );
  }

  const seed = program.command('seed').description('demo data');
  seed
    .command('demo')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx, config) => {
        const r = await seedDemo(ctx);
        print(
          !!o.json,
          r,
          [
            `demo company ${r.companyId} with ${r.accountIds.length} accounts`,
            `API key (all scopes): ${r.apiKey}`,
            `try: curl -H "Authorization: Bearer ${r.apiKey}" ${config.publicUrl}/v2/accounts`,
          ].join('\n'),
        );
      }),
    );
  return program;
}

export async function runCli(argv: string[]): Promise<void> {
  try {
    await buildCli().parseAsync(argv);
  } catch (err) {
    if (OPERATOR_ERRORS.some((E) => err instanceof E)) {
      console.error(`slotline: ${(err as Error).message}`);
      process.exitCode = 1;
      return;
    }
    throw err;
  }
}
