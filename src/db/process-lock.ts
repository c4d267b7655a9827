// The embedded database serves one long-running process (the service, or a dispatcher
// or simulator loop run alone): its in-process caches and the single dispatcher assume
// no other writer loop. The lock is an exclusive SQLite lock on a file of its own beside
// the database, held for the life of the process. The operating system drops it when the
// process ends, however it ends, so a crash never leaves a stale lock behind; short
// commands (`slotline key create`, `dispatch --once`) do not take it and keep working
// beside the running service.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { CliError } from '../lib/cli-error.ts';

export const LOCK_FILE = 'slotline.lock';

export class ProcessLockError extends CliError {}

/** Held locks stay referenced here, so none is closed by garbage collection. */
const held = new Set<SqliteDatabase.Database>();

export interface ProcessLock {
  release(): void;
}

/** Takes the data directory's process lock, or throws when another process holds it. */
export function lockEmbeddedDatabase(dataDir: string, holder: string): ProcessLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  // timeout 0: a held lock answers SQLITE_BUSY at once instead of waiting for it.
  const lock = new SqliteDatabase(path, { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    // In exclusive locking mode the first write takes the exclusive lock and keeps it
    // until the connection closes.
    lock.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER, what TEXT, since TEXT)');
    lock
      .prepare('INSERT INTO holder (pid, what, since) VALUES (?, ?, ?)')
      .run(process.pid, holder, new Date().toISOString());
    lock.exec('DELETE FROM holder WHERE rowid < (SELECT max(rowid) FROM holder)');
  } catch (err) {
    lock.close();
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
      throw new ProcessLockError(
        `another Slotline process (a service, dispatcher or simulator loop) is already running on ` +
          `the embedded database in ${dataDir}. The embedded database serves one long-running ` +
          `process: stop the other one, or run several on PostgreSQL (set DATABASE_URL).`,
      );
    }
    throw err;
  }
  held.add(lock);
  return {
    release: () => {
      held.delete(lock);
      lock.close();
    },
  };
}
