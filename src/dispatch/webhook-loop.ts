// Sends webhooks from the service process (or `slotline dispatch`): fans events out of the
// outbox, claims due deliveries up to this process's concurrency (in total and per
// endpoint), sends them, and settles each as it answers. It runs when woken by an event
// recorded through this process's database, when an attempt ends, and every `pollMs`
// otherwise (events of other replicas, retries coming due). Old events are pruned once an
// hour. Both run on lib/periodic.ts, so each failure reaches `onError`.
import type { AppContext } from '../context.ts';
import { startPeriodic } from '../lib/periodic.ts';
import {
  claimDue,
  fanOut,
  prune,
  settleAttempts,
  type Attempted,
  type Claimed,
  onEventsRecorded,
  sendWebhookDelivery,
  type Transport,
} from '../modules/webhooks/index.ts';

/** Events (with their deliveries and log) are kept this long. */
export const EVENT_RETENTION_MS = 30 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_FIRST_MS = 60_000;

export interface WebhookLoop {
  /** Stops claiming, then waits for the attempts in flight (each bounded by its timeout). */
  stop(): Promise<void>;
  /** Runs a pass soon. */
  kick(): void;
}

export interface WebhookLoopOptions {
  pollMs: number;
  onError: (err: unknown) => void;
  transport?: Transport;
}

export function startWebhookLoop(ctx: AppContext, options: WebhookLoopOptions): WebhookLoop {
  const total = ctx.config.webhookConcurrency;
  const perEndpointMax = ctx.config.webhookEndpointConcurrency;
  const perEndpoint = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  let running = true;

  // One pass: fan out what is due, then claim deliveries up to the free room.
  async function pump(): Promise<void> {
    const now = ctx.clock.now();
    while ((await fanOut(ctx.db, now)) > 0 && running);
    if (!running) return;
    const free = total - inFlight.size;
    const full = new Set([...perEndpoint].filter(([, n]) => n >= perEndpointMax).map(([id]) => id));
    const claims = await claimDue(
      ctx,
      now,
      free,
      full,
      (id) => perEndpointMax - (perEndpoint.get(id) ?? 0),
    );
    for (const claimed of claims) launch(claimed);
  }

  // Attempts that ended, settled together by one flush at a time.
  let toSettle: { attempted: Attempted; settled: () => void }[] = [];
  let flushing = false;
  async function flush(): Promise<void> {
    if (flushing) return;
    flushing = true;
    try {
      while (toSettle.length) {
        const batch = toSettle;
        toSettle = [];
        try {
          await settleAttempts(
            ctx,
            batch.map((b) => b.attempted),
            ctx.clock.now(),
          );
        } catch (err) {
          options.onError(err);
        }
        for (const b of batch) b.settled();
      }
    } finally {
      flushing = false;
    }
  }

  function launch(claimed: Claimed): void {
    const id = claimed.endpoint.id;
    perEndpoint.set(id, (perEndpoint.get(id) ?? 0) + 1);
    const work = sendWebhookDelivery(ctx, claimed, options.transport)
      .then(
        (result) =>
          new Promise<void>((settled) => {
            toSettle.push({ attempted: { claimed, result }, settled });
            void flush();
          }),
      )
      .catch((err: unknown) => options.onError(err))
      .finally(() => {
        inFlight.delete(work);
        const left = (perEndpoint.get(id) ?? 1) - 1;
        if (left > 0) perEndpoint.set(id, left);
        else perEndpoint.delete(id);
        // Claims go out in batches: once a quarter of the room is free (or all of it).
        if (total - inFlight.size >= Math.max(1, total >> 2) || inFlight.size === 0) {
          delivery.kick();
        }
      });
    inFlight.add(work);
  }

  const report = { onError: options.onError };
  // Woken by this database's own events and by attempts ending; polling for the rest.
  const delivery = startPeriodic(pump, options.pollMs, report);
  const unsubscribe = onEventsRecorded(ctx.db, delivery.kick);
  // Pruning runs beside deliveries, never in their way: a minute after start, then hourly.
  const pruning = startPeriodic(
    () => prune(ctx.db, new Date(ctx.clock.now().getTime() - EVENT_RETENTION_MS)),
    PRUNE_EVERY_MS,
    report,
    { firstDelayMs: PRUNE_FIRST_MS },
  );

  return {
    kick: delivery.kick,
    async stop() {
      running = false;
      unsubscribe();
      await Promise.all([delivery.stop(), pruning.stop()]);
      await Promise.all([...inFlight]);
    },
  };
}

/**
 * One complete pass, awaited: every due event fanned out, every due delivery sent and
 * settled (for the `dispatch --once` command and for tests driving a fake clock).
 */
export async function deliverDue(
  ctx: AppContext,
  transport: Transport = {},
): Promise<{ sent: number }> {
  let sent = 0;
  const now = ctx.clock.now();
  while ((await fanOut(ctx.db, now)) > 0);
  for (;;) {
    const claims = await claimDue(
      ctx,
      now,
      ctx.config.webhookConcurrency,
      new Set(),
      () => ctx.config.webhookEndpointConcurrency,
    );
    if (claims.length === 0) return { sent };
    const attempted = await Promise.all(
      claims.map(async (claimed) => ({
        claimed,
        result: await sendWebhookDelivery(ctx, claimed, transport),
      })),
    );
    await settleAttempts(ctx, attempted, ctx.clock.now());
    sent += claims.length;
  }
}
