// Background work on a timer (the dispatcher, webhook delivery and pruning, the simulator,
// the batchers' flushes): one pass at a time, a pass that fails is reported and the next one
// runs, the timer never keeps the process alive, and stopping waits for the pass under way.
// Every loop of the service runs on this, started by the composition root.

export interface Periodic {
  /** Runs a pass now; while one is running, runs one more as soon as it ends. */
  kick(): void;
  /** Stops the timer and waits for the pass under way; kicks after it do nothing. */
  stop(): Promise<void>;
}

export interface PassReport<R> {
  onPass?: (result: R) => void;
  onError: (err: unknown) => void;
}

export interface PeriodicOptions {
  /** The first pass runs after this long rather than at once. */
  firstDelayMs?: number;
}

/** Runs `pass` now (or after `firstDelayMs`) and then every `intervalMs`. */
export function startPeriodic<R>(
  pass: () => Promise<R>,
  intervalMs: number,
  report: PassReport<R>,
  options: PeriodicOptions = {},
): Periodic {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const run = () => {
    running = Promise.resolve()
      .then(pass)
      .then((r) => report.onPass?.(r))
      .catch(report.onError)
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          run();
        }
      });
  };
  // A tick while a pass runs is skipped: the interval is a floor, not a queue.
  const tick = () => {
    if (!running && !stopped) run();
  };
  const kick = () => {
    if (stopped) return;
    if (running) again = true;
    else run();
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  let first: NodeJS.Timeout | null = null;
  if (options.firstDelayMs === undefined) tick();
  else {
    first = setTimeout(tick, options.firstDelayMs);
    first.unref();
  }
  return {
    kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (first) clearTimeout(first);
      while (running) await running;
    },
  };
}
