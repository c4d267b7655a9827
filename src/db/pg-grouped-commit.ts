// Group commit for PostgreSQL. Every create of a company ends by updating the
// company's usage counters, and a counter row stays locked from that update to
// the commit, including the commit's WAL flush: one transaction per create
// lets a company commit one create per flush. Creates that arrive together
// therefore run in one transaction, in two phases:
//
// - every unit's `work` first (its inserts), in ascending `claims` (the unique
//   key a unit claims first, such as its Idempotency-Key) and then arrival, so
//   two groups claiming the same keys in two processes take them in one order;
// - then every unit's `finish` (the counter updates), ordered by `order` and
//   then arrival, so the shared rows are locked only for the last statements
//   of the group and always in the same order, in whichever process;
// - one commit; a unit's result is released only after it, so nothing is
//   reported written before it is durable.
//
// A unit is atomic: when its work or finish throws, the transaction is rolled
// back, that unit fails with its error, and the group runs again without it.
// A deadlock or serialization failure is nobody's fault: PostgreSQL rolled
// the whole transaction back to let another one through, so the group runs
// again whole, a bounded number of times, before its unit fails with it.
// A unit may therefore run more than once (only its last run commits), and
// must do nothing but database work through `tx`. Several groups run at once,
// each on its own connection; the units of a group run one after another, so
// conditional writes (caps, unique keys) stay exact.
import { isRetryableConflict } from './errors.ts';
import type { Db, DbOrTx } from './types.ts';

/** Units per transaction at most, as on SQLite (grouped-commit.ts). */
const MAX_GROUP = 16;
/**
 * Transactions open at once. While one waits for its commit, the next runs its
 * units; more than a few only queue on the counter rows and hold connections
 * that reads need.
 */
const MAX_RUNNING = 3;
/** Runs of a group that PostgreSQL rolled back for a deadlock, before a unit fails with it. */
const CONFLICT_ATTEMPTS = 5;

export interface GroupedUnit<T> {
  work: (tx: DbOrTx) => Promise<T>;
  /** Run after every unit's work, with this unit's result. */
  finish?: (tx: DbOrTx, value: T) => Promise<void>;
  /** Finishes run in ascending `order` (then arrival), so shared rows lock in one order. */
  order?: string;
  /** Works run in ascending `claims` (then arrival): the unique key the work claims first. */
  claims?: string;
}

type Queued = {
  unit: GroupedUnit<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
};

class PgGroupCommitter {
  private readonly queue: Queued[] = [];
  private running = 0;
  private scheduled = false;

  constructor(private readonly db: Db) {}

  run<T>(unit: GroupedUnit<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        unit: unit as GroupedUnit<unknown>,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running >= MAX_RUNNING || this.queue.length === 0) return;
    this.scheduled = true;
    // One turn of the event loop lets the requests that are ready together join one group.
    setImmediate(() => {
      this.scheduled = false;
      while (this.running < MAX_RUNNING && this.queue.length > 0) {
        const group = this.queue.splice(0, MAX_GROUP);
        this.running += 1;
        void this.runGroup(group).finally(() => {
          this.running -= 1;
          this.schedule();
        });
      }
    });
  }

  private async runGroup(arrived: Queued[]): Promise<void> {
    let left = arrived
      .map((q, i) => ({ q, i }))
      .sort((a, b) => compare(a.q.unit.claims, b.q.unit.claims) || a.i - b.i)
      .map(({ q }) => q);
    let conflicts = 0;
    while (left.length > 0) {
      let outcome: { values: unknown[] } | { failed: number; failure: unknown };
      try {
        outcome = await this.attempt(left);
      } catch (err) {
        // Beginning or committing failed: nothing of the group is written.
        for (const q of left) q.reject(err);
        return;
      }
      if ('values' in outcome) {
        left.forEach((q, i) => q.resolve(outcome.values[i]));
        return;
      }
      if (isRetryableConflict(outcome.failure) && ++conflicts < CONFLICT_ATTEMPTS) {
        // The other transaction goes on; this one waits a moment, then runs again whole.
        await new Promise((r) => setTimeout(r, Math.random() * 5 * conflicts));
        continue;
      }
      const failed = left[outcome.failed] as Queued;
      failed.reject(outcome.failure);
      left = left.filter((q) => q !== failed);
    }
  }

  /** One transaction over `group`; which unit failed when one did (rolled back). */
  private async attempt(
    group: Queued[],
  ): Promise<{ values: unknown[] } | { failed: number; failure: unknown }> {
    const trx = await this.db.startTransaction().execute();
    let current = -1;
    try {
      const values: unknown[] = [];
      for (const [i, q] of group.entries()) {
        current = i;
        values.push(await q.unit.work(trx));
      }
      const finishing = group
        .map((q, i) => ({ q, i }))
        .filter(({ q }) => q.unit.finish)
        .sort((a, b) => compare(a.q.unit.order, b.q.unit.order) || a.i - b.i);
      for (const { q, i } of finishing) {
        current = i;
        await q.unit.finish?.(trx, values[i]);
      }
      current = -1;
      await trx.commit().execute();
      return { values };
    } catch (err) {
      if (!trx.isCommitted && !trx.isRolledBack) {
        await trx
          .rollback()
          .execute()
          .catch(() => {});
      }
      if (current < 0) throw err;
      return { failed: current, failure: err };
    }
  }
}

function compare(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  return (a ?? '') < (b ?? '') ? -1 : 1;
}

const committers = new WeakMap<Db, PgGroupCommitter>();

/**
 * Runs `unit` atomically in a transaction shared with concurrent units on the
 * same (PostgreSQL) database; resolves after that transaction commits.
 */
export function runGroupedPg<T>(db: Db, unit: GroupedUnit<T>): Promise<T> {
  let committer = committers.get(db);
  if (!committer) {
    committer = new PgGroupCommitter(db);
    committers.set(db, committer);
  }
  return committer.run(unit);
}
