// The `slotline` command: the service and its operator tasks.
import { readFileSync } from 'node:fs';
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
import { dispatchPass, startDispatchLoop } from './dispatch/loop.ts';
import { ApprovalError, approve, reject } from './modules/approvals/approvals.service.ts';
import {
  assignAccounts,
  createWorker,
  getWorker,
  listWorkers,
  revokeWorker,
  rotateWorkerToken,
  updateWorker,
  WorkerError,
  type WorkerInfo,
} from './modules/workers/workers.service.ts';
import { simulatePass, SIMULATOR_INTERVAL_MS, startSimulator } from './dispatch/simulator.ts';
import type { Clock } from './lib/clock.ts';

/** Errors an operator can fix; printed without a stack trace. */
const OPERATOR_ERRORS = [
  ConfigError,
  CompanyError,
  KeyError,
  WorkspaceError,
  ApprovalError,
  WorkerError,
];

function print(json: boolean, value: unknown, text: string): void {
  console.log(json ? JSON.stringify(value, null, 2) : text);
}

async function withContext<T>(
  fn: (ctx: AppContext, config: Config) => Promise<T>,
  clock?: Clock,
): Promise<T> {
  const config = loadConfig();
  const opened = await openContext(config, clock ? { clock } : {});
  try {
    return await fn(opened.ctx, config);
  } finally {
    await opened.close();
  }
}

/** `--at`: RFC 3339 with an offset, since a local time would leave the instant ambiguous. */
function atInstant(value: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(
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
}

/** "a, b,c" -> ["a", "b", "c"] */
function idList(value: string): string[] {
  return String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function workerLine(w: WorkerInfo): string {
  const flags = [w.simulated ? 'simulated' : '', w.revokedAt ? 'revoked' : ''].filter(Boolean);
  return [
    w.workerId,
    w.timezone,
    `${w.accounts} account(s)`,
    w.name,
    ...(flags.length ? [flags.join(',')] : []),
  ].join('  ');
}

function workerDetails(w: WorkerInfo): string {
  return [
    `worker ${w.workerId}${w.simulated ? ' (simulated)' : ''}`,
    `  name:        ${w.name}`,
    `  timezone:    ${w.timezone}`,
    `  accounts:    ${w.accounts}`,
    `  token:       slw_${w.tokenPrefix}_…`,
    `  created:     ${w.createdAt}`,
    `  last seen:   ${w.lastSeenAt ?? 'never'}`,
    ...(w.revokedAt ? [`  revoked:     ${w.revokedAt}`] : []),
  ].join('\n');
}

function onOff(value: string): boolean {
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new CompanyError(`expected "on" or "off" (got "${value}")`);
}

/** The version of this build, from its package.json. */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

export function buildCli(): Command {
  const program = new Command('slotline')
    .description('Slotline publishing service')
    .version(packageVersion(), '-V, --version', 'print the version')
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
      const at = o.at === undefined ? null : atInstant(o.at);
      if (at && !o.once) throw new ConfigError('--at needs --once (a fixed clock for one pass)');
      return withContext(async (ctx, config) => {
        if (o.once) {
          const r = await dispatchPass(ctx, at ?? ctx.clock.now());
          print(
            !!o.json,
            r,
            `released ${r.released} item(s) across ${r.accounts} account(s); ` +
              `failed ${r.overdue.unclaimed + r.overdue.unconfirmed} overdue task(s)`,
          );
          return;
        }
        const loop = startDispatchLoop(ctx, config.dispatchIntervalMs || 15_000, {
          onPass: (r) =>
            (r.released > 0 || r.overdue.unclaimed + r.overdue.unconfirmed > 0) &&
            print(!!o.json, r, `released ${r.released} item(s)`),
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

  program
    .command('simulate')
    .description('run the simulated workers alone (the service runs them when SIMULATOR=on)')
    .option('--once', 'one pass, then exit')
    .option('--at <iso>', 'with --once: the pass runs at this instant (RFC 3339)')
    .option('--json', 'machine-readable output')
    .action(async (o: { once?: boolean; at?: string; json?: boolean }) => {
      const at = o.at === undefined ? null : atInstant(o.at);
      if (at && !o.once) throw new ConfigError('--at needs --once (a fixed clock for one pass)');
      return withContext(
        async (ctx) => {
          if (o.once) {
            const r = await simulatePass(ctx, ctx.clock.now());
            print(
              !!o.json,
              r,
              `${r.workers} simulated worker(s): ${r.statusReports} account status report(s), claimed ${r.claimed}, posted ${r.posted}, ${r.snapshots} snapshot(s), ${r.accountStats} account stat(s)`,
            );
            return;
          }
          const loop = startSimulator(ctx, SIMULATOR_INTERVAL_MS, {
            onPass: (r) =>
              (r.claimed > 0 || r.posted > 0) &&
              print(!!o.json, r, `claimed ${r.claimed}, posted ${r.posted}`),
            onError: (err) =>
              console.error(`slotline: simulator pass failed: ${(err as Error).message}`),
          });
          await new Promise<void>((resolve) => {
            process.once('SIGINT', resolve);
            process.once('SIGTERM', resolve);
          });
          await loop.stop();
        },
        at ? { now: () => new Date(at) } : undefined,
      );
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

  const worker = program
    .command('worker')
    .description('manage workers: the people or automations that post for accounts');
  worker
    .command('create')
    .requiredOption('--name <name>', 'label for the worker')
    .requiredOption('--timezone <tz>', 'IANA timezone; its accounts take it (e.g. Europe/Berlin)')
    .option('--simulated', 'played by the built-in simulator (demo and tests)')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx) => {
        const w = await createWorker(ctx.db, ctx.clock, {
          name: o.name,
          timezone: o.timezone,
          simulated: !!o.simulated,
        });
        print(
          !!o.json,
          w,
          `created worker ${w.workerId} (${w.name}, ${w.timezone}${w.simulated ? ', simulated' : ''})\n${w.token}\nStore it now: it is not shown again.`,
        );
      }),
    );
  worker
    .command('list')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx) => {
        const list = await listWorkers(ctx.db);
        print(!!o.json, list, list.length ? list.map(workerLine).join('\n') : 'no workers');
      }),
    );
  worker
    .command('show <workerId>')
    .option('--json', 'machine-readable output')
    .action(async (workerId: string, o) =>
      withContext(async (ctx) => {
        const w = await getWorker(ctx.db, workerId);
        print(!!o.json, w, workerDetails(w));
      }),
    );
  worker
    .command('update <workerId>')
    .description("rename a worker or move it (and its accounts' windows) to another timezone")
    .option('--name <name>')
    .option('--timezone <tz>', 'IANA timezone')
    .option('--json', 'machine-readable output')
    .action(async (workerId: string, o) =>
      withContext(async (ctx) => {
        if (o.name === undefined && o.timezone === undefined) {
          throw new WorkerError('nothing to update: give --name and/or --timezone');
        }
        const w = await updateWorker(ctx.db, ctx.clock, workerId, {
          ...(o.name !== undefined ? { name: o.name } : {}),
          ...(o.timezone !== undefined ? { timezone: o.timezone } : {}),
        });
        print(!!o.json, w, `updated worker ${w.workerId} (${w.name}, ${w.timezone})`);
      }),
    );
  worker
    .command('assign <workerId>')
    .description("hand accounts to a worker; they take the worker's timezone")
    .requiredOption('--accounts <ids>', 'comma-separated account ids')
    .option('--json', 'machine-readable output')
    .action(async (workerId: string, o) =>
      withContext(async (ctx) => {
        const accountIds = idList(o.accounts);
        const w = (await assignAccounts(ctx.db, ctx.clock, workerId, accountIds)) as WorkerInfo;
        print(
          !!o.json,
          { worker: w, accountIds },
          `assigned ${accountIds.length} account(s) to worker ${w.workerId} (${w.timezone}); it now operates ${w.accounts}`,
        );
      }),
    );
  worker
    .command('unassign')
    .description('take accounts from their worker; nothing is released to them until reassigned')
    .requiredOption('--accounts <ids>', 'comma-separated account ids')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx) => {
        const accountIds = idList(o.accounts);
        await assignAccounts(ctx.db, ctx.clock, null, accountIds);
        print(
          !!o.json,
          { workerId: null, accountIds },
          `unassigned ${accountIds.length} account(s)`,
        );
      }),
    );
  worker
    .command('revoke <workerId>')
    .description('revoke the worker token; its accounts stay assigned until moved')
    .option('--json', 'machine-readable output')
    .action(async (workerId: string, o) =>
      withContext(async (ctx) => {
        const w = await revokeWorker(ctx.db, ctx.clock, workerId);
        print(!!o.json, w, `revoked worker ${w.workerId}`);
      }),
    );
  worker
    .command('rotate-token <workerId>')
    .description('issue a new token; the old one stops working at once')
    .option('--json', 'machine-readable output')
    .action(async (workerId: string, o) =>
      withContext(async (ctx) => {
        const w = await rotateWorkerToken(ctx.db, ctx.clock, workerId);
        print(
          !!o.json,
          w,
          `new token for worker ${w.workerId}\n${w.token}\nStore it now: it is not shown again.`,
        );
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
    .description('a demo company, a simulated worker operating its accounts, and queued posts')
    .option('--timezone <tz>', "the worker's timezone (default: where 08:00 comes next)")
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx, config) => {
        const r = await seedDemo(ctx, o.timezone ? { timezone: o.timezone } : {});
        const now = ctx.clock.now();
        const inMinutes = Math.max(
          0,
          Math.round((Date.parse(r.nextWindow) - now.getTime()) / 60_000),
        );
        const local = (iso: string) =>
          new Date(iso).toLocaleTimeString('en-GB', {
            timeZone: r.worker.timezone,
            hour: '2-digit',
            minute: '2-digit',
          });
        const queued = r.posts.filter((p) => p.status === 'queued').length;
        const waiting = r.posts.filter((p) => p.status === 'pending_approval');
        print(
          !!o.json,
          r,
          [
            `demo company ${r.companyId} with ${r.accountIds.length} accounts`,
            `API key (all scopes): ${r.apiKey}`,
            `simulated worker ${r.worker.workerId} (${r.worker.name}) in ${r.worker.timezone} operates them:`,
            ...r.accounts.map(
              (a) =>
                `  ${a.accountId}  ${a.platform.padEnd(9)}  ${a.username.padEnd(12)}  windows ${a.windows.join(' ')}  next ${local(a.nextWindow)}`,
            ),
            `posts: ${queued} queued` +
              (waiting.length
                ? `, ${waiting.length} waiting for approval (${waiting.map((p) => `slotline approve --post ${p.postId}`).join('; ')})`
                : ''),
            `next window: ${r.nextWindow} (${local(r.nextWindow)} ${r.worker.timezone}, in ${inMinutes} min)`,
            `run the service (npm start): the simulator sets the accounts up (warming_up, active a minute`,
            `later), releases go out at each window, the simulator posts them`,
            `and analytics fill in over the following hours (SIMULATOR=off turns it off).`,
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
