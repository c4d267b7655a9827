// In-process signals about a database's writes: a change committed through one handle
// (a request's transaction) wakes the background work of the same handle (the webhook
// delivery loop) at once rather than at its next poll. Keyed by the dialect adapter, which
// a database and its transactions share, so two databases open in one process never wake
// each other. Other processes learn of the same writes by polling.
import type { DbOrTx } from './types.ts';

type Listener = () => void;

const subscribers = new WeakMap<object, Map<string, Set<Listener>>>();

const keyOf = (db: DbOrTx): object => db.getExecutor().adapter;

/** Calls `listener` a moment after each `raise(db, name)` until the returned function runs. */
export function onSignal(db: DbOrTx, name: string, listener: Listener): () => void {
  let byName = subscribers.get(keyOf(db));
  if (!byName) subscribers.set(keyOf(db), (byName = new Map()));
  let set = byName.get(name);
  if (!set) byName.set(name, (set = new Set()));
  set.add(listener);
  const held = set;
  return () => {
    held.delete(listener);
  };
}

/**
 * Wakes the listeners of `name` on this database. Raised inside a transaction, they run
 * a few milliseconds later, once the caller's commit has had its chance to land.
 */
export function raise(db: DbOrTx, name: string): void {
  const set = subscribers.get(keyOf(db))?.get(name);
  if (!set) return;
  for (const listener of set) setTimeout(listener, 5).unref();
}
