// Readiness (GET /readyz): whether this process should receive traffic. The database
// answers, storage is reachable, every migration of this build is applied, and the
// process is not draining. The report also tells how much media work and mail waits across
// every process and how long the oldest has waited (detail, never a reason to be unready:
// a slow media or outbox loop must not take the API out of the balancer). Probes come often and
// from several places, so each check is bounded by a timeout, concurrent probes share one
// run, and a passing result serves for a second. A failure's reason is a fixed phrase; its cause goes to the log only.
import type { AppContext } from '../context.ts';
import { pendingMigrations, ping } from '../db/connect.ts';
import { mediaBacklog } from '../modules/media-jobs/index.ts';
import { outboxBacklog } from '../modules/outbox/index.ts';

export type CheckName = 'database' | 'storage' | 'migrations' | 'draining';

export interface CheckResult {
  status: 'ok' | 'failed';
  /** Why it failed, in words safe to show anyone: no stack, path or address. */
  reason?: string;
}

/** Media work over every process: a stuck media loop shows as a growing oldest age. */
export interface MediaJobsDetail {
  waiting: number;
  running: number;
  /** Seconds the oldest waiting job has waited; 0 when none waits. */
  oldestWaitingSeconds: number;
}

/** Mail waiting in the outbox over every process: a stuck outbox loop shows the same way. */
export interface OutboxDetail {
  waiting: number;
  /** Seconds the oldest waiting message has waited; 0 when none waits. */
  oldestWaitingSeconds: number;
}

/** What the report tells beside its checks. */
export interface ReadinessDetail {
  mediaJobs: MediaJobsDetail;
  outbox: OutboxDetail;
}

export interface ReadinessReport {
  status: 'ready' | 'unavailable';
  checks: Partial<Record<CheckName, CheckResult>>;
  /** Detail that does not decide readiness; absent when it could not be read in time. */
  mediaJobs?: MediaJobsDetail;
  outbox?: OutboxDetail;
}

/** A check's failure with a reason meant to be shown. */
export class CheckFailed extends Error {}

export interface ReadinessOptions {
  /** Bound on each check; default 2 s. */
  timeoutMs?: number;
  /** How long a passing report serves later probes; default 1 s. */
  cacheMs?: number;
  /** Receives what made a check fail, for the log. */
  onFailure?: (check: CheckName, err: unknown) => void;
}

type Check = () => Promise<void>;

const GENERIC: Record<CheckName, string> = {
  database: 'the database did not answer',
  storage: 'media storage is not reachable',
  migrations: 'the migration state could not be read',
  draining: 'the service is shutting down',
};

export class Readiness {
  private readonly timeoutMs: number;
  private readonly cacheMs: number;
  private draining = false;
  private passed: { at: number; report: ReadinessReport } | null = null;
  private running: Promise<ReadinessReport> | null = null;
  /**
   * A check still waiting after its timeout is not started again until it settles: with
   * the database gone, each probe would otherwise add a connection attempt to the pool.
   */
  private readonly outstanding = new Map<CheckName, Promise<void>>();

  constructor(
    private readonly checks: Partial<Record<CheckName, Check>>,
    private readonly options: ReadinessOptions = {},
    private readonly details?: () => Promise<ReadinessDetail>,
  ) {
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.cacheMs = options.cacheMs ?? 1_000;
  }

  /** From now on the process reports unavailable (shutdown has begun); never undone. */
  drain(): void {
    this.draining = true;
    this.passed = null;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  /** The current report; never rejects. */
  async report(): Promise<ReadinessReport> {
    if (this.draining) return drainingReport();
    if (this.passed && Date.now() - this.passed.at < this.cacheMs) return this.passed.report;
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
    const report = await this.running;
    // Draining may have begun while the checks ran.
    return this.draining ? drainingReport() : report;
  }

  private async run(): Promise<ReadinessReport> {
    const names = Object.keys(this.checks) as CheckName[];
    const [results, detail] = await Promise.all([
      Promise.all(names.map((name) => this.runOne(name))),
      this.detail(),
    ]);
    const checks: ReadinessReport['checks'] = {};
    names.forEach((name, i) => (checks[name] = results[i]));
    checks.draining = { status: 'ok' };
    const ok = results.every((r) => r?.status === 'ok');
    const report: ReadinessReport = {
      status: ok ? 'ready' : 'unavailable',
      checks,
      ...detail,
    };
    this.passed = ok ? { at: Date.now(), report } : null;
    return report;
  }

  /** The media and outbox backlogs within the checks' timeout, or nothing. */
  private async detail(): Promise<ReadinessDetail | undefined> {
    if (!this.details) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.timeoutMs);
    });
    const read = this.details().catch(() => undefined);
    try {
      return await Promise.race([read, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async runOne(name: CheckName): Promise<CheckResult> {
    const check = this.checks[name];
    if (!check) return { status: 'ok' };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new CheckFailed(`no answer within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    let pending = this.outstanding.get(name);
    if (!pending) {
      const started = Promise.resolve()
        .then(check)
        .finally(() => this.outstanding.delete(name));
      // Its failure is read below, or by a later probe; never an unhandled rejection.
      started.catch(() => {});
      this.outstanding.set(name, started);
      pending = started;
    }
    try {
      await Promise.race([pending, timeout]);
      return { status: 'ok' };
    } catch (err) {
      this.options.onFailure?.(name, err);
      return { status: 'failed', reason: err instanceof CheckFailed ? err.message : GENERIC[name] };
    } finally {
      clearTimeout(timer);
    }
  }
}

function drainingReport(): ReadinessReport {
  return {
    status: 'unavailable',
    checks: { draining: { status: 'failed', reason: GENERIC.draining } },
  };
}

/** The service's checks over its context: database, storage, migrations. */
export function readinessOf(ctx: AppContext, options: ReadinessOptions = {}): Readiness {
  return new Readiness(
    {
      database: () => ping(ctx.db),
      storage: () => ctx.blobs.check(),
      migrations: async () => {
        const pending = await pendingMigrations(ctx.db);
        if (pending.length > 0) {
          throw new CheckFailed(
            `${pending.length} migration(s) pending: run "slotline migrate" or restart`,
          );
        }
      },
    },
    options,
    async () => {
      const now = ctx.clock.now();
      const [b, mail] = await Promise.all([mediaBacklog(ctx.db, now), outboxBacklog(ctx.db)]);
      return {
        mediaJobs: {
          waiting: b.waiting.render + b.waiting.thumbnail,
          running: b.running.render + b.running.thumbnail,
          oldestWaitingSeconds: Math.max(
            b.oldestWaitingSeconds.render,
            b.oldestWaitingSeconds.thumbnail,
          ),
        },
        outbox: {
          waiting: mail.count,
          oldestWaitingSeconds: mail.oldest
            ? Math.max(0, Math.round((now.getTime() - Date.parse(mail.oldest)) / 1000))
            : 0,
        },
      };
    },
  );
}
