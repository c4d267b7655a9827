// Sends the outbox's mail (modules/outbox) from any process that runs the loop: claims due
// messages up to its concurrency when woken by mail written through this process's
// database, when a send ends, and every `pollMs` otherwise (mail of other processes,
// retries coming due, leases that ran out after a crash). Each claim is a lease longer
// than one SMTP conversation can take, so a message is sent by one process at a time; a
// process that dies between the server's answer and the settle leaves the message to be
// sent again with the same Message-ID, which is as close to once as SMTP allows.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { AppContext } from '../context.ts';
import { startPeriodic } from '../lib/periodic.ts';
import {
  claimMail,
  onMailEnqueued,
  settleMail,
  type Channel,
  type ClaimedMail,
  type Mailer,
} from '../modules/outbox/index.ts';

/** Mails one process sends at once. */
const CONCURRENCY = 4;
/** A claim holds this long: well past one SMTP conversation's timeouts. */
export const OUTBOX_LEASE_MS = 5 * 60_000;

export interface OutboxLoopOptions {
  pollMs: number;
  /** The channel this loop sends (`email` by default) and what sends it. */
  channel?: Channel;
  mailer: Mailer;
  onError: (err: unknown) => void;
}

export interface OutboxLoop {
  kick(): void;
  /** Stops claiming, then waits for the sends under way (each bounded by its timeouts). */
  stop(): Promise<void>;
}

function leaseOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

async function sendOne(
  ctx: AppContext,
  mailer: Mailer,
  mail: ClaimedMail,
  owner: string,
): Promise<void> {
  const result = await mailer.send(mail);
  await settleMail(ctx.db, mail, owner, result, ctx.clock.now());
}

export function startOutboxLoop(ctx: AppContext, options: OutboxLoopOptions): OutboxLoop {
  const lease = { owner: leaseOwner(), ms: OUTBOX_LEASE_MS };
  const inFlight = new Set<Promise<void>>();
  let running = true;

  async function pump(): Promise<void> {
    if (!running) return;
    const mails = await claimMail(
      ctx.db,
      CONCURRENCY - inFlight.size,
      lease,
      ctx.clock.now(),
      options.channel ?? 'email',
    );
    for (const mail of mails) {
      const work = sendOne(ctx, options.mailer, mail, lease.owner)
        .catch((err: unknown) => options.onError(err))
        .finally(() => {
          inFlight.delete(work);
          loop.kick();
        });
      inFlight.add(work);
    }
  }

  const loop = startPeriodic(pump, options.pollMs, { onError: options.onError });
  const unsubscribe = onMailEnqueued(ctx.db, loop.kick);
  return {
    kick: loop.kick,
    async stop() {
      running = false;
      unsubscribe();
      await loop.stop();
      await Promise.all([...inFlight]);
    },
  };
}

/**
 * One complete pass, awaited: every mail due at the clock's time sent and settled (for
 * commands and for tests driving a fake clock). Returns how many attempts were made.
 */
export async function deliverDueMail(
  ctx: AppContext,
  mailer: Mailer,
  channel: Channel = 'email',
): Promise<number> {
  const owner = leaseOwner();
  let attempts = 0;
  for (;;) {
    const mails = await claimMail(
      ctx.db,
      CONCURRENCY,
      { owner, ms: OUTBOX_LEASE_MS },
      ctx.clock.now(),
      channel,
    );
    if (mails.length === 0) return attempts;
    await Promise.all(mails.map((mail) => sendOne(ctx, mailer, mail, owner)));
    attempts += mails.length;
  }
}
