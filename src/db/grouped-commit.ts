// Group commit for the embedded database. SQLite commits one transaction at a
// time through one connection, and a commit costs about as much as the writes
// of a small transaction: every page a transaction changed is appended to the
// WAL, and the same right-hand index pages change in every insert. Write units
// that arrive while a transaction is running are therefore run together in the
// next one:
//
// - a unit is atomic: when it throws, only that unit fails with its error and
//   the others go ahead. The group runs without savepoints first (which make
//   SQLite keep an undo copy of every page a unit changes); when a unit fails,
//   that attempt is rolled back and the group runs again with a savepoint
//   around each unit. A unit may therefore run twice, and must have no effects
//   outside the database;
// - a unit's result is released only after the shared commit, so nothing is
//   reported written before it is durable; if the commit fails, every unit of
//   the group fails with the commit's error;
// - units run one after another in arrival order on the one connection, so
//   conditional writes (caps, unique keys) stay exact.
//
// A unit alone (no concurrent writers) runs in a transaction of its own with
// no added wait beyond one turn of the event loop.
import { CompiledQuery } from 'kysely';
import type { Db, DbOrTx } from './types.ts';

/**
 * Units per transaction at most. It bounds the wait of the first unit of a
 * group; past about 16 a larger group saves little more and holds back more
 * answers (measured at 32 connections: better p99, no fewer posts a second).
 */
const MAX_GROUP = 16;
// Savepoint commands are issued as they are: Kysely's savepoint API builds and
// compiles them and a new transaction object for every unit.
const SAVEPOINT = CompiledQuery.raw('savepoint grouped_unit');
const RELEASE = CompiledQuery.raw('release grouped_unit');
const ROLLBACK_TO = CompiledQuery.raw('rollback to grouped_unit');

type Unit = {
  work: (tx: DbOrTx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
};

type Settled = { ok: boolean; value: unknown };
type Attempt =
  | { kind: 'committed'; values: unknown[] }
  | { kind: 'failed'; failure: unknown }
  | { kind: 'settled'; settled: Settled[] };

class GroupCommitter {
  private readonly queue: Unit[] = [];
  private running = false;

  constructor(private readonly db: Db) {}

  run<T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (v: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running || this.queue.length === 0) return;
    this.running = true;
    // One turn of the event loop lets the requests that are ready at the same
    // moment (say, released together by the previous commit) join one group.
    setImmediate(() => {
      void this.runGroup().finally(() => {
        this.running = false;
        this.schedule();
      });
    });
  }

  private async runGroup(): Promise<void> {
    const group = this.queue.splice(0, MAX_GROUP);
    try {
      const first = await this.attempt(group, false);
      if (first.kind === 'committed') {
        group.forEach((unit, i) => unit.resolve(first.values[i]));
        return;
      }
      if (first.kind === 'failed' && group.length === 1) {
        // Alone, the unit's transaction was its own: its failure is final.
        (group[0] as Unit).reject(first.failure);
        return;
      }
      const second = await this.attempt(group, true);
      if (second.kind !== 'settled') throw new Error('grouped units: unexpected outcome');
      group.forEach((unit, i) => {
        const outcome = second.settled[i] as Settled;
        if (outcome.ok) unit.resolve(outcome.value);
        else unit.reject(outcome.value);
      });
    } catch (err) {
      // Beginning, undoing a unit or committing failed: nothing of the group is written.
      for (const unit of group) unit.reject(err);
    }
  }

  /**
   * Runs the group in one transaction. Without savepoints, the first unit to
   * fail rolls the whole transaction back; with them, each unit's outcome is
   * kept and the rest commit.
   */
  private async attempt(group: Unit[], savepoints: boolean): Promise<Attempt> {
    const trx = await this.db.startTransaction().execute();
    try {
      const values: unknown[] = [];
      const settled: Settled[] = [];
      for (const unit of group) {
        if (!savepoints) {
          try {
            values.push(await unit.work(trx));
          } catch (failure) {
            await trx.rollback().execute();
            return { kind: 'failed', failure };
          }
          continue;
        }
        await trx.executeQuery(SAVEPOINT);
        try {
          const value = await unit.work(trx);
          await trx.executeQuery(RELEASE);
          settled.push({ ok: true, value });
        } catch (err) {
          await trx.executeQuery(ROLLBACK_TO);
          await trx.executeQuery(RELEASE);
          settled.push({ ok: false, value: err });
        }
      }
      await trx.commit().execute();
      return savepoints ? { kind: 'settled', settled } : { kind: 'committed', values };
    } catch (err) {
      if (!trx.isCommitted && !trx.isRolledBack) {
        await trx
          .rollback()
          .execute()
          .catch(() => {});
      }
      throw err;
    }
  }
}

const committers = new WeakMap<Db, GroupCommitter>();

/**
 * Runs `work` atomically in a transaction shared with concurrent units on the
 * same (SQLite) database; resolves after that transaction commits. `work` may
 * run more than once (only its last run commits), so it must do nothing but
 * database work, and all of it through `tx`: a query on `db` itself would wait
 * for the connection this very transaction holds.
 */
export function runGrouped<T>(db: Db, work: (tx: DbOrTx) => Promise<T>): Promise<T> {
  let committer = committers.get(db);
  if (!committer) {
    committer = new GroupCommitter(db);
    committers.set(db, committer);
  }
  return committer.run(work);
}
