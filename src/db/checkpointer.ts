// WAL checkpoints of the embedded database, off the request path. SQLite's automatic
// checkpoint runs inside whichever commit pushes the WAL past its threshold, copying pages
// into the database file and syncing it on the event loop's thread, so one request in
// every few thousand writes waits for it. Instead the service's connection never
// checkpoints, and a worker thread with a connection of its own runs a PASSIVE checkpoint
// every interval: it copies what no reader still needs and never blocks writers or readers.
// When every frame is copied and no reader is inside the WAL, the next writer starts it
// over from the beginning; journal_size_limit keeps the file itself from staying large.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const INTERVAL_MS = 1000;

// CommonJS run by the worker thread; kept tiny and free of TypeScript so it needs no loader.
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 0');
let timer;
const tick = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (err) { parentPort.postMessage(String(err && err.message || err)); }
  timer = setTimeout(tick, workerData.intervalMs);
};
// Clearing the timer lets the thread exit at once rather than at its next tick.
parentPort.on('message', () => { clearTimeout(timer); db.close(); parentPort.close(); });
timer = setTimeout(tick, workerData.intervalMs);
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

/** Turns off automatic checkpoints on `sqlite` and runs them from a worker thread instead. */
export function startCheckpointer(
  sqlite: { pragma(source: string): unknown },
  path: string,
  onError: (err: unknown) => void = () => {},
  intervalMs = INTERVAL_MS,
): Checkpointer {
  sqlite.pragma('wal_autocheckpoint = 0');
  sqlite.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, path, intervalMs },
  });
  worker.unref();
  // A checkpoint that fails is reported and tried again at the next interval.
  worker.on('message', (message: string) =>
    onError(new Error(`WAL checkpoint failed: ${message}`)),
  );
  // A failing checkpointer must not take the service down; commits checkpoint again then.
  worker.on('error', (err) => {
    sqlite.pragma('wal_autocheckpoint = 1000');
    onError(err);
  });
  return {
    async stop() {
      // Held referenced until it has closed its connection, then ended either way.
      worker.ref();
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('stop');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise<void>((r) => (timer = setTimeout(r, 2000)))]);
      clearTimeout(timer);
      await worker.terminate();
    },
  };
}
