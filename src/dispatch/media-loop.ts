// Does the media work of the media_jobs table (modules/media-jobs): carousel renders and
// upload thumbnails, in any process that runs the loop. It claims due jobs up to each
// lane's room when woken by a job written through this process's database, when a job of
// its own ends, and every `pollMs` otherwise (jobs of other processes, retries coming due,
// leases that ran out). While a job runs its lease is renewed; a process that dies stops
// renewing, and once the lease runs out any loop takes the job again. A job that throws
// is tried again after a backoff; after MAX_ATTEMPTS claims it fails for good and its
// post's items (or its upload's thumbnail) say why. Stopping hands back, at once and with
// its attempt refunded, every job still running past the grace it is given.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { AppContext } from '../context.ts';
import { MEDIA_LANES } from '../lib/metrics.ts';
import { startPeriodic } from '../lib/periodic.ts';
import {
  MAX_ATTEMPTS,
  MEDIA_JOB_KINDS,
  claimMediaJobs,
  finishMediaJob,
  onMediaJobsAdded,
  releaseMediaJob,
  renewMediaJobs,
  retryMediaJob,
  type MediaJob,
  type MediaJobKind,
  type MediaOutcome,
} from '../modules/media-jobs/index.ts';
import { renderGaveUp, runRenderJob } from '../modules/posts/index.ts';
import { runThumbnailJob, thumbnailGaveUp } from '../modules/uploads/index.ts';

interface Handler {
  /** Does the work; a permanent failure is recorded by the work itself and returned. */
  run(ctx: AppContext, job: MediaJob, signal: AbortSignal): Promise<MediaOutcome>;
  /** Records that the job failed for good after its attempts. */
  giveUp(ctx: AppContext, job: MediaJob, reason: string): Promise<void>;
}

const HANDLERS: Record<MediaJobKind, Handler> = {
  render: {
    run: (ctx, job, signal) => runRenderJob(ctx, job.companyId, job.subjectId, signal),
    giveUp: (ctx, job, reason) => renderGaveUp(ctx, job.companyId, job.subjectId, reason),
  },
  thumbnail: {
    run: (ctx, job, signal) => runThumbnailJob(ctx, job.companyId, job.subjectId, signal),
    giveUp: (ctx, job, reason) => thumbnailGaveUp(ctx, job.companyId, job.subjectId, reason),
  },
};

/**
 * Jobs of each kind one process runs at once. Both are CPU-bound (the slide renderer,
 * sharp, ffmpeg) and share the host with the API, so one each.
 */
const CONCURRENCY: Record<MediaJobKind, number> = { render: 1, thumbnail: 1 };

/** How long stopping waits for jobs under way before handing them back. */
const STOP_GRACE_MS = 10_000;
/** How long a job stopped by its signal may take to notice before it is handed back anyway. */
const ABORT_GRACE_MS = 2_000;

export interface MediaLoopOptions {
  /** How often to look for due jobs beyond those this process wakes it for. */
  pollMs: number;
  /** How long a claim holds before another process may take the job. */
  leaseMs: number;
  /** Receives failures of the loop itself and of a job's bookkeeping. */
  onError: (err: unknown) => void;
  /** A job that failed for good (after its attempts, or on content that cannot work). */
  onFailed?: (job: MediaJob, reason: string) => void;
}

export interface MediaLoop {
  /** Looks for due jobs soon. */
  kick(): void;
  /**
   * Resolves once a look found no due job and none of this process's jobs runs: for tests
   * and commands that need the work done before they go on.
   */
  idle(): Promise<void>;
  /**
   * Claims nothing until the returned function is called (jobs under way go on): to hold
   * media work back for a moment, as tests do to see a post while it is processing.
   */
  hold(): () => void;
  /** Jobs of each kind running in this process now. */
  running(): Record<MediaJobKind, number>;
  /**
   * Stops claiming, waits up to `graceMs` (default 10 s) for the jobs under way, then
   * stops the rest and hands them back to be taken again at once. Resolves with how many
   * were handed back.
   */
  stop(graceMs?: number): Promise<{ handedBack: number }>;
}

interface Active {
  job: MediaJob;
  abort: AbortController;
  done: Promise<void>;
}

export function startMediaLoop(ctx: AppContext, options: MediaLoopOptions): MediaLoop {
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const lease = { owner, ms: options.leaseMs };
  const active = new Map<string, Active>();
  const perKind: Record<MediaJobKind, number> = { render: 0, thumbnail: 0 };
  let stopping = false;
  let holds = 0;
  let idleWaiters: { after: number; resolve: () => void }[] = [];

  // A look that started after idle() was called found nothing, and nothing runs here.
  let started = 0;
  let emptyLook = 0;
  const settleIdle = () => {
    if (active.size > 0) return;
    idleWaiters = idleWaiters.filter((w) => {
      if (w.after > emptyLook) return true;
      w.resolve();
      return false;
    });
  };

  async function pass(): Promise<void> {
    if (stopping || holds > 0) return;
    const look = ++started;
    let claimed = 0;
    let full = false;
    for (const kind of MEDIA_JOB_KINDS) {
      const room = CONCURRENCY[kind] - perKind[kind];
      if (room <= 0) {
        full = true;
        continue;
      }
      const jobs = await claimMediaJobs(ctx.db, kind, room, lease, ctx.clock.now());
      claimed += jobs.length;
      for (const job of jobs) launch(job);
    }
    // A full lane was not looked at: that look says nothing of its jobs.
    if (claimed === 0 && !full) emptyLook = look;
    settleIdle();
  }

  function failed(job: MediaJob, reason: string): void {
    ctx.metrics.mediaJobFailed(MEDIA_LANES[job.kind]);
    options.onFailed?.(job, reason);
  }

  async function work(job: MediaJob, signal: AbortSignal): Promise<void> {
    const handler = HANDLERS[job.kind];
    if (job.attempt > MAX_ATTEMPTS) {
      // Claimed that often without ending: the processes holding it died or stopped.
      const reason =
        `the work was started ${MAX_ATTEMPTS} times without finishing` +
        (job.lastError ? ` (last: ${job.lastError})` : '');
      await handler.giveUp(ctx, job, reason);
      failed(job, reason);
      await finishMediaJob(ctx.db, job, owner);
      return;
    }
    let outcome: MediaOutcome;
    try {
      outcome = await handler.run(ctx, job, signal);
    } catch (err) {
      if (signal.aborted) {
        await releaseMediaJob(ctx.db, job, owner, ctx.clock.now());
        return;
      }
      const reason = err instanceof Error ? err.message : String(err);
      if (job.attempt >= MAX_ATTEMPTS) {
        await handler.giveUp(ctx, job, reason);
        failed(job, reason);
        await finishMediaJob(ctx.db, job, owner);
      } else {
        await retryMediaJob(ctx.db, job, owner, reason, ctx.clock.now());
      }
      options.onError(err);
      return;
    }
    if (!outcome.ok) failed(job, outcome.reason);
    await finishMediaJob(ctx.db, job, owner);
  }

  function launch(job: MediaJob): void {
    const key = `${job.kind}\n${job.subjectId}`;
    const abort = new AbortController();
    perKind[job.kind] += 1;
    const done = work(job, abort.signal)
      .catch(options.onError)
      .finally(() => {
        perKind[job.kind] -= 1;
        active.delete(key);
        loop.kick();
        settleIdle();
      });
    active.set(key, { job, abort, done });
  }

  // Leases are renewed a few times within their length, so one slow renewal loses nothing.
  async function renewAll(): Promise<void> {
    for (const kind of MEDIA_JOB_KINDS) {
      const mine = [...active.values()].filter((a) => a.job.kind === kind);
      if (mine.length === 0) continue;
      const held = await renewMediaJobs(
        ctx.db,
        kind,
        mine.map((a) => a.job.subjectId),
        lease,
        ctx.clock.now(),
      );
      // Lost to another process (this one stalled past its lease): that one does the work.
      for (const a of mine) if (!held.has(a.job.subjectId)) a.abort.abort();
    }
  }

  const report = { onError: options.onError };
  const loop = startPeriodic(pass, options.pollMs, report);
  const renewal = startPeriodic(renewAll, Math.max(250, Math.floor(options.leaseMs / 3)), report, {
    firstDelayMs: Math.max(250, Math.floor(options.leaseMs / 3)),
  });
  const unsubscribe = onMediaJobsAdded(ctx.db, loop.kick);

  return {
    kick: loop.kick,
    idle() {
      const waiting = new Promise<void>((resolve) =>
        idleWaiters.push({ after: started + 1, resolve }),
      );
      loop.kick();
      return waiting;
    },
    hold() {
      holds += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds -= 1;
        loop.kick();
      };
    },
    running: () => ({ ...perKind }),
    async stop(graceMs = STOP_GRACE_MS) {
      stopping = true;
      unsubscribe();
      await loop.stop();
      const all = () => Promise.all([...active.values()].map((a) => a.done));
      await Promise.race([all(), sleep(graceMs)]);
      const left = [...active.values()];
      for (const a of left) a.abort.abort();
      await Promise.race([all(), sleep(ABORT_GRACE_MS)]);
      // Work that did not notice its signal in time is handed back regardless; should it
      // still finish here, what it writes is what the next attempt would write.
      for (const a of active.values()) {
        await releaseMediaJob(ctx.db, a.job, owner, ctx.clock.now()).catch(options.onError);
      }
      await renewal.stop();
      for (const w of idleWaiters) w.resolve();
      idleWaiters = [];
      return { handedBack: left.length };
    },
  };
}

/**
 * Does every media job due now in this process and returns once none is left (for
 * commands whose work should be complete when they end); a failure is thrown.
 */
export async function drainMediaJobs(ctx: AppContext, leaseMs: number): Promise<void> {
  const errors: unknown[] = [];
  const loop = startMediaLoop(ctx, {
    pollMs: 60_000,
    leaseMs,
    onError: (err) => errors.push(err),
  });
  await loop.idle();
  await loop.stop();
  if (errors[0]) throw errors[0];
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());
}
