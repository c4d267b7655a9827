// Runs the dispatcher on a timer in the service process (or alone, `slotline
// dispatch`). One pass at a time; a failed pass is reported and the next one runs.
import type { AppContext } from '../context.ts';
import { releaseDue, type DispatchResult } from './dispatcher.ts';

export interface DispatchLoop {
  stop(): Promise<void>;
}

export function startDispatchLoop(
  ctx: AppContext,
  intervalMs: number,
  report: { onPass?: (r: DispatchResult) => void; onError: (err: unknown) => void },
): DispatchLoop {
  let running: Promise<void> | null = null;
  const pass = () => {
    if (running) return;
    running = releaseDue(ctx, ctx.clock.now())
      .then((r) => report.onPass?.(r))
      .catch(report.onError)
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(pass, intervalMs);
  timer.unref();
  pass();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
