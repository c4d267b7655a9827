// Background work on a timer (the dispatcher, the simulator): one pass at a time, a pass
// that fails is reported and the next one runs, the timer never keeps the process alive,
// and stopping waits for the pass under way.

export interface Periodic {
  stop(): Promise<void>;
}

export interface PassReport<R> {
  onPass?: (result: R) => void;
  onError: (err: unknown) => void;
}

/** Runs `pass` now and then every `intervalMs`, skipping a tick while one is running. */
export function startPeriodic<R>(
  pass: () => Promise<R>,
  intervalMs: number,
  report: PassReport<R>,
): Periodic {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = pass()
      .then((r) => report.onPass?.(r))
      .catch(report.onError)
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
