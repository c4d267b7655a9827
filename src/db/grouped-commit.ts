// Group commit for the embedded database. SQLite commits one transaction at a
// time through one connection, and a commit costs about as much as the writes
// of a small transaction: every page a transaction changed is appended to the
// WAL, and the same right-hand index pages change in every insert. Write units
// that arrive while a transaction is running are therefore run together in the
// next one, each inside its own savepoint:
//
// - a unit is atomic: when it throws, its savepoint is rolled back and only
//   that unit fails with its error; the others go ahead;
// - a unit's result is released only after the shared commit, so nothing is
//   reported written before it is durable; if the commit fails, every unit of
//   the group fails with the commit's error;
// - units run one after another in arrival order on the one connection, so
//   conditional writes (caps, unique keys) stay exact.
//
// A unit alone (no concurrent writers) runs in a transaction of its own with
// no added wait beyond one turn of the event loop.
import { CompiledQuery, type ControlledTransaction } from 'kysely';
import type { Database, Db, DbOrTx } from './types.ts';

/** Units per transaction at most, which bounds the wait of the first one. */
const MAX_GROUP = 64;
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
    const settled: { unit: Unit; ok: boolean; value: unknown }[] = [];
    let trx: ControlledTransaction<Database>;
    try {
      trx = await this.db.startTransaction().execute();
    } catch (err) {
      for (const unit of group) unit.reject(err);
      return;
    }
    if (group.length === 1) {
      // Alone, the unit's transaction is its own: no savepoint is needed to undo it.
      const [unit] = group as [Unit];
      try {
        const value = await unit.work(trx);
        await trx.commit().execute();
        unit.resolve(value);
      } catch (err) {
        if (!trx.isCommitted)
          await trx
            .rollback()
            .execute()
            .catch(() => {});
        unit.reject(err);
      }
      return;
    }
    try {
      for (const unit of group) {
        await trx.executeQuery(SAVEPOINT);
        try {
          const value = await unit.work(trx);
          await trx.executeQuery(RELEASE);
          settled.push({ unit, ok: true, value });
        } catch (err) {
          // Only this unit's writes are undone; a failure to undo them aborts the group.
          await trx.executeQuery(ROLLBACK_TO);
          await trx.executeQuery(RELEASE);
          settled.push({ unit, ok: false, value: err });
        }
      }
      await trx.commit().execute();
    } catch (err) {
      await trx
        .rollback()
        .execute()
        .catch(() => {});
      for (const unit of group) unit.reject(err);
      return;
    }
    for (const { unit, ok, value } of settled) {
      if (ok) unit.resolve(value);
      else unit.reject(value);
    }
  }
}

const committers = new WeakMap<Db, GroupCommitter>();

/**
 * Runs `work` atomically in a transaction shared with concurrent units on the
 * same (SQLite) database; resolves after that transaction commits.
 */
export function runGrouped<T>(db: Db, work: (tx: DbOrTx) => Promise<T>): Promise<T> {
  let committer = committers.get(db);
  if (!committer) {
    committer = new GroupCommitter(db);
    committers.set(db, committer);
  }
  return committer.run(work);
}
