// `slotline dispatch` and `slotline simulate`: the service's background loops run alone.
import type { Command } from 'commander';
import type { Config } from '../config.ts';
import type { ProcessLock } from '../db/process-lock.ts';
import { CliError } from '../lib/cli-error.ts';
import type { Refusal } from '../simulator/simulator.ts';
import { atInstant, print, untilSignal, UsageError, withContext } from './shared.ts';

/** A dispatch or simulate command that failed; the CLI prints it on one line and exits 1. */
export class LoopCommandError extends CliError {}

function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\s+/g, ' ').trim() || (err as Error).name || 'unknown error';
}

/** Runs a command's work; any failure becomes one line (an operator's error stays as it is). */
async function oneLineErrors(what: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new LoopCommandError(`${what} failed: ${oneLine(err)}`, { cause: err });
  }
}

/** A loop on the embedded database runs alone (db/process-lock.ts); PostgreSQL allows several. */
async function embeddedLock(config: Config, what: string): Promise<ProcessLock | null> {
  if (config.databaseUrl) return null;
  const { lockEmbeddedDatabase } = await import('../db/process-lock.ts');
  return lockEmbeddedDatabase(config.dataDir, what);
}

interface LoopOptions {
  once?: boolean;
  at?: string;
  json?: boolean;
}

/** `--at` only fixes the clock of a single pass. */
function onceAt(o: LoopOptions): Date | null {
  const at = o.at === undefined ? null : atInstant(o.at);
  if (at && !o.once) throw new UsageError('--at needs --once (a fixed clock for one pass)');
  return at;
}

export function registerLoops(program: Command): void {
  program
    .command('dispatch')
    .description('run the release dispatcher alone (PostgreSQL allows several at once)')
    .option('--once', 'one pass, then exit')
    .option('--at <iso>', 'with --once: release what is due at this instant (RFC 3339)')
    .option('--json', 'machine-readable output')
    .action((o: LoopOptions) =>
      oneLineErrors('dispatch', async () => {
        const at = onceAt(o);
        await withContext(async (ctx, config) => {
          const { dispatchPass, startDispatchLoop } = await import('../dispatch/loop.ts');
          if (o.once) {
            const r = await dispatchPass(ctx, at ?? ctx.clock.now());
            print(
              !!o.json,
              r,
              `released ${r.released} item(s) across ${r.accounts} account(s); ` +
                `failed ${r.overdue.unclaimed + r.overdue.unconfirmed} overdue task(s) ` +
                `and ${r.expiredUploads} expired upload(s)`,
            );
            return;
          }
          const lock = await embeddedLock(config, 'dispatch');
          const loop = startDispatchLoop(ctx, config.dispatchIntervalMs || 15_000, {
            onPass: (r) =>
              (r.released > 0 || r.overdue.unclaimed + r.overdue.unconfirmed > 0) &&
              print(!!o.json, r, `released ${r.released} item(s)`),
            onError: (err) => console.error(`slotline: dispatch pass failed: ${oneLine(err)}`),
          });
          await untilSignal();
          await loop.stop();
          lock?.release();
        });
      }),
    );

  program
    .command('simulate')
    .description('run the simulated workers alone (the service runs them when SIMULATOR=on)')
    .option('--once', 'one pass, then exit')
    .option('--at <iso>', 'with --once: the pass runs at this instant (RFC 3339)')
    .option('--json', 'machine-readable output')
    .action((o: LoopOptions) =>
      oneLineErrors('simulate', async () => {
        const at = onceAt(o);
        await withContext(
          async (ctx, config) => {
            const { describeRefusal, simulatePass, SIMULATOR_INTERVAL_MS, startSimulator } =
              await import('../simulator/simulator.ts');
            // A refused report is expected of the worker rules, not a failure of the command.
            const onRefused = (r: Refusal) => console.error(`slotline: ${describeRefusal(r)}`);
            if (o.once) {
              const r = await simulatePass(ctx, ctx.clock.now(), { onRefused });
              const extra = [
                r.notYetReleased > 0
                  ? `${r.notYetReleased} task(s) released after this pass's clock`
                  : '',
                r.refused.length > 0 ? `${r.refused.length} refused report(s)` : '',
              ].filter(Boolean);
              print(
                !!o.json,
                r,
                `${r.workers} simulated worker(s): ${r.statusReports} account status report(s), ` +
                  `claimed ${r.claimed}, posted ${r.posted}, ${r.snapshots} snapshot(s), ` +
                  `${r.accountStats} account stat(s)` +
                  extra.map((e) => `, ${e}`).join(''),
              );
              return;
            }
            const lock = await embeddedLock(config, 'simulate');
            const loop = startSimulator(ctx, SIMULATOR_INTERVAL_MS, {
              onPass: (r) =>
                (r.claimed > 0 || r.posted > 0) &&
                print(!!o.json, r, `claimed ${r.claimed}, posted ${r.posted}`),
              onRefused,
              onError: (err) => console.error(`slotline: simulator pass failed: ${oneLine(err)}`),
            });
            await untilSignal();
            await loop.stop();
            lock?.release();
          },
          at ? { now: () => new Date(at) } : undefined,
        );
      }),
    );
}
