// What differs between SQLite and PostgreSQL, chosen here once for every caller, so no
// code outside db/ asks which database it runs on.
// - Row locks: queries say what they lock (`forUpdate()`, `forShare()`, `skipLocked()`,
//   ...) as PostgreSQL needs it. SQLite runs one write transaction at a time, so its reads
//   inside one need no lock; its compiler leaves those clauses out (SqliteWithoutRowLocks).
// - Grouped commits: concurrent units of write work share a transaction and its commit,
//   by the engine of each database (`commitGrouped`).
import {
  SqliteDialect,
  SqliteQueryCompiler,
  type QueryCompiler,
  type SelectModifierNode,
  type SelectQueryNode,
} from 'kysely';
import { runGrouped } from './grouped-commit.ts';
import { runGroupedPg, type GroupedUnit } from './pg-grouped-commit.ts';
import type { Db, DbOrTx, Dialect } from './types.ts';

const ROW_LOCKS: ReadonlySet<string> = new Set([
  'ForUpdate',
  'ForNoKeyUpdate',
  'ForShare',
  'ForKeyShare',
  'NoWait',
  'SkipLocked',
]);

function withoutLocks(modifiers: readonly SelectModifierNode[]): SelectModifierNode[] {
  return modifiers.filter((m) => !ROW_LOCKS.has(m.modifier ?? ''));
}

/** SQLite's compiler, leaving out the row-lock clauses SQLite does not have nor need. */
class CompilerWithoutRowLocks extends SqliteQueryCompiler {
  protected override visitSelectQuery(node: SelectQueryNode): void {
    const kept = node.endModifiers ? withoutLocks(node.endModifiers) : undefined;
    super.visitSelectQuery(
      kept && kept.length !== node.endModifiers?.length
        ? { ...node, endModifiers: kept.length > 0 ? kept : undefined }
        : node,
    );
  }
}

/**
 * The SQLite dialect of this service: queries compile without row locks. In the compiler,
 * not a plugin, so a query costs nothing more and prepared queries stay compiled once per
 * database (prepared.ts).
 */
export class SqliteWithoutRowLocks extends SqliteDialect {
  override createQueryCompiler(): QueryCompiler {
    return new CompilerWithoutRowLocks();
  }
}

const dialects = new WeakMap<Db, Dialect>();

/** Records which database a connection opened by connect.ts talks to. */
export function registerDialect(db: Db, dialect: Dialect): void {
  dialects.set(db, dialect);
}

export type { GroupedUnit };

/**
 * Runs `unit` atomically in a transaction shared with concurrent units, and resolves once
 * that transaction committed (grouped-commit.ts on SQLite, pg-grouped-commit.ts on
 * PostgreSQL, which orders the units' work by `claims` and their `finish` by `order`).
 */
export function commitGrouped<T>(db: Db, unit: GroupedUnit<T>): Promise<T> {
  if (dialects.get(db) === 'postgres') return runGroupedPg(db, unit);
  return runGrouped(db, async (tx: DbOrTx) => {
    const value = await unit.work(tx);
    await unit.finish?.(tx, value);
    return value;
  });
}
