// The built-in simulator worker (DECISIONS 6): plays the worker of every simulated worker
// (workers.simulated = 1, not revoked) for the demo and the tests. It goes through the same
// service functions as the worker API, with the worker's own principal, under the same rules
// as any worker: heartbeat, set up new accounts (report `warming_up` on first sight, `active`
// once `warmupMs` has passed; DECISIONS 7), claim the released tasks once their release time
// has come, report each one posted once `postDelayMs` has passed since its claim (never
// before its release), then report analytics snapshots and account statistics.
//
// Everything it reports is a pure function of ids and elapsed time (seeded from the task or
// account id), so passes can be repeated, run by two processes, or replayed in tests with a
// fake clock: the same task always gets the same postUrl (a repeated report is harmless) and
// figures that never decrease. A pass's clock may be behind what a dispatcher released (by
// `slotline dispatch --once --at` a later instant): a task released after the pass's clock
// is left alone until the clock reaches its release.
//
// A report the worker rules refuse is noted once (onRefused) and never sent again while the
// memory of refusals lives (a loop keeps one for the life of its process): a refused result
// leaves the task to its report deadline, which the dispatcher enforces.
import type { AppContext } from '../context.ts';
import { startPeriodic, type PassReport, type Periodic } from '../lib/periodic.ts';
import { DAY_MS, MINUTE_MS } from '../schedule/local-time.ts';
import { SimulatorRefusal, type Refusal } from './refusals.ts';
import {
  WORKER_CALLS,
  driveWorker,
  simulatedWorkers,
  type SimulatorResult,
  type SimulatorTimings,
  type WorkerCalls,
} from './worker-pass.ts';

export { describeRefusal, SimulatorRefusal } from './refusals.ts';
export type { Refusal, ReportKind } from './refusals.ts';
export { simulatedFigures, simulatedPostUrl } from './figures.ts';
export type { SimulatedFigures } from './figures.ts';
export type { SimulatorResult, SimulatorTimings, WorkerCalls } from './worker-pass.ts';

/** How often `slotline serve` runs a pass. */
export const SIMULATOR_INTERVAL_MS = 10_000;

export interface SimulatorOptions extends SimulatorTimings {
  /**
   * Keys of the reports refused so far (see Refusal): none of them is sent again, and a pass
   * adds those it sees refused. A loop keeps one set for the life of its process; without
   * it, a pass remembers its own refusals only.
   */
  refused?: Set<string>;
  /** Called once for each report refused in the pass, when it is refused. */
  onRefused?: (refusal: Refusal) => void;
  /**
   * Calls to make instead of some of the worker services (a stricter rule in front of one,
   * say); the worker services themselves otherwise.
   */
  workerCalls?: Partial<WorkerCalls>;
}

/**
 * One pass over every simulated worker at `now`. The services run on a clock fixed at `now`,
 * so what they stamp (claims, reports, snapshots) agrees with the simulator's own timing.
 */
export async function simulatePass(
  ctx: AppContext,
  now: Date,
  options: SimulatorOptions = {},
): Promise<SimulatorResult> {
  const timings: Required<SimulatorTimings> = {
    warmupMs: options.warmupMs ?? MINUTE_MS,
    postDelayMs: options.postDelayMs ?? 20_000,
    snapshotEveryMs: options.snapshotEveryMs ?? 15 * MINUTE_MS,
    snapshotForMs: options.snapshotForMs ?? 3 * DAY_MS,
  };
  const at = now.getTime();
  const fixed: AppContext = { ...ctx, clock: { now: () => new Date(at) } };
  const result: SimulatorResult = {
    workers: 0,
    statusReports: 0,
    claimed: 0,
    posted: 0,
    snapshots: 0,
    accountStats: 0,
    notYetReleased: 0,
    refused: [],
  };
  const calls: WorkerCalls = { ...WORKER_CALLS, ...options.workerCalls };
  const refused = options.refused ?? new Set<string>();
  for (const worker of await simulatedWorkers(fixed)) {
    result.workers++;
    await driveWorker({
      ctx: fixed,
      worker,
      now: at,
      timings,
      calls,
      refused,
      onRefused: options.onRefused,
      result,
    });
  }
  return result;
}

export type SimulatorLoop = Periodic;

export interface SimulatorReport extends PassReport<SimulatorResult> {
  /**
   * Each refused report, once for the life of the loop. Without it, onError gets each one as
   * a SimulatorRefusal (its message alone, no stack trace).
   */
  onRefused?: (refusal: Refusal) => void;
}

/**
 * Runs passes on a timer, one at a time, like the dispatch loop; a failed pass is reported.
 * The loop remembers the reports refused for as long as it runs, so none is sent (or
 * reported) twice.
 */
export function startSimulator(
  ctx: AppContext,
  intervalMs: number,
  report: SimulatorReport,
  options: SimulatorOptions = {},
): SimulatorLoop {
  const refused = options.refused ?? new Set<string>();
  const onRefused =
    report.onRefused ??
    options.onRefused ??
    ((r: Refusal) => report.onError(new SimulatorRefusal(r)));
  return startPeriodic(
    () => simulatePass(ctx, ctx.clock.now(), { ...options, refused, onRefused }),
    intervalMs,
    report,
  );
}
