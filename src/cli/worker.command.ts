// `slotline worker ...`: the people or automations that post for accounts.
import type { Command } from 'commander';
import type { WorkerInfo } from '../modules/workers/index.ts';
import { idList, print, UsageError, withContext } from './shared.ts';

const workers = () => import('../modules/workers/index.ts');

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

export function registerWorker(program: Command): void {
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
        const { createWorker } = await workers();
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
        const { listWorkers } = await workers();
        const list = await listWorkers(ctx.db);
        print(!!o.json, list, list.length ? list.map(workerLine).join('\n') : 'no workers');
      }),
    );
  worker
    .command('show <workerId>')
    .option('--json', 'machine-readable output')
    .action(async (workerId: string, o) =>
      withContext(async (ctx) => {
        const { getWorker } = await workers();
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
          throw new UsageError('nothing to update: give --name and/or --timezone');
        }
        const { updateWorker } = await workers();
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
        const { assignAccounts } = await workers();
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
        const { assignAccounts } = await workers();
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
        const { revokeWorker } = await workers();
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
        const { rotateWorkerToken } = await workers();
        const w = await rotateWorkerToken(ctx.db, ctx.clock, workerId);
        print(
          !!o.json,
          w,
          `new token for worker ${w.workerId}\n${w.token}\nStore it now: it is not shown again.`,
        );
      }),
    );
}
