// Notify benchmark (`npm run bench -- notify`), three figures, each beside a baseline from
// the same run:
// 1. A release pass (releaseDue) over 10,000 due accounts run by 1,000 workers, with every
//    worker's device subscribed, against the same pass with no device at all, on SQLite and
//    PostgreSQL (median of BENCH_ROUNDS, default 3). Target: at most 1.2x: writing the pushes
//    is a few inserts in the release's transaction, and sending never runs on that path.
// 2. The outbox's delivery rate against bare sends to the same receivers: pushes through the
//    push loop (encrypted, signed, guarded) against bare POSTs of the same size, and mail
//    through the outbox against bare nodemailer sends to the same SMTP server (ratios).
// 3. Release to push received, with the service's push loop running: p99 under 5 s.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, createECDH } from 'node:crypto';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { openContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import type { Db, Dialect } from '../src/db/types.ts';
import { releaseDue } from '../src/dispatch/dispatcher.ts';
import { deliverDueMail, startOutboxLoop } from '../src/dispatch/outbox-loop.ts';
import { FakeClock } from '../src/lib/clock.ts';
import { newId } from '../src/lib/ids.ts';
import { createCompany } from '../src/modules/companies/companies.service.ts';
import { enqueueMany, smtpMailer } from '../src/modules/outbox/index.ts';
import { pushSender, queuePushes } from '../src/modules/push/index.ts';
import { DUE_AT, seedDueAccounts } from './due-accounts.ts';
import { freshStore, pgReachable } from './stores.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ACCOUNTS = 10_000;
const WORKERS = 1_000;
const RELEASE_TARGET = 1.2;
const MESSAGES = 1_000;
const LATENCY_TARGET_MS = 5_000;

function middle(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
}

/** A device's subscription keys, as a browser makes them. */
function deviceKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };
}

/** Workers for the seeded accounts (ten each), and one device per worker when `devices`. */
async function seedWorkers(db: Db, accountIds: string[], devices: string | null): Promise<void> {
  const at = DUE_AT;
  const ms = Date.parse(at);
  const keys = deviceKeys();
  for (let w = 0; w < WORKERS; w += 250) {
    const workers = Array.from({ length: Math.min(250, WORKERS - w) }, (_, i) => ({
      id: newId('wrk', ms),
      name: `Worker ${w + i}`,
      timezone: 'UTC',
      token_prefix: `wt_${w + i}`,
      token_hash: randomBytes(16).toString('hex'),
      simulated: 0,
      created_at: at,
      updated_at: at,
      last_seen_at: null,
      revoked_at: null,
    }));
    await db.insertInto('workers').values(workers).execute();
    if (devices !== null) {
      await db
        .insertInto('push_subscriptions')
        .values(
          workers.map((wk) => ({
            id: newId('psh', ms),
            audience: 'worker' as const,
            owner_id: wk.id,
            company_id: null,
            endpoint: `${devices}/push/${wk.id}`,
            p256dh: keys.p256dh,
            auth: keys.auth,
            expiration_time: null,
            created_at: at,
            updated_at: at,
          })),
        )
        .execute();
    }
    for (const [i, wk] of workers.entries()) {
      const mine = accountIds.slice((w + i) * 10, (w + i) * 10 + 10);
      await db.updateTable('accounts').set({ worker_id: wk.id }).where('id', 'in', mine).execute();
    }
  }
}

async function releasePass(dialect: Dialect, subscribed: boolean): Promise<number> {
  const store = await freshStore(dialect, 'notify');
  try {
    const clock = new FakeClock(DUE_AT);
    const opened = await openContext(loadConfig({ ...store.env, LOG_LEVEL: 'warn' }), { clock });
    try {
      const { ctx } = opened;
      const company = await createCompany(ctx.db, clock, ctx.config.plans, {
        name: 'Bench',
        plan: 'scale',
      });
      const due = await seedDueAccounts(ctx.db, company.companyId, ACCOUNTS);
      await seedWorkers(ctx.db, due.accountIds, subscribed ? 'https://push.example.com' : null);
      const t0 = performance.now();
      const r = await releaseDue(ctx, clock.now());
      const ms = performance.now() - t0;
      if (r.released !== ACCOUNTS) throw new Error(`released ${r.released} of ${ACCOUNTS}`);
      const pushes = await ctx.db
        .selectFrom('outbox_messages')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('channel', '=', 'push')
        .executeTakeFirstOrThrow();
      // One push per worker and chunk of releases: a worker's ten tasks go in one push, or in
      // two when its accounts fall into two chunks.
      const n = Number(pushes.n);
      if (subscribed ? n < WORKERS || n > 2 * WORKERS : n !== 0) {
        throw new Error(`${n} pushes for ${WORKERS} workers`);
      }
      return ms;
    } finally {
      await opened.close();
    }
  } finally {
    await store.drop();
  }
}

async function releaseRatio(dialect: Dialect) {
  await releasePass(dialect, true);
  const bare: number[] = [];
  const pushed: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    bare.push(await releasePass(dialect, false));
    pushed.push(await releasePass(dialect, true));
  }
  const without = middle(bare);
  const withPushes = middle(pushed);
  const ratio = Math.round((withPushes / without) * 100) / 100;
  const name = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  console.log(
    `  ${name}: ${ACCOUNTS} accounts, ${WORKERS} workers: with every worker subscribed ${withPushes.toFixed(0)} ms, without ${without.toFixed(0)} ms: ratio ${ratio} (target <= ${RELEASE_TARGET}: ${ratio <= RELEASE_TARGET ? 'PASS' : 'FAIL'})`,
  );
  return { dialect, withMs: withPushes, withoutMs: without, ratio, pass: ratio <= RELEASE_TARGET };
}

/** An HTTP receiver answering 201 to every POST, and when each arrived. */
async function pushReceiver() {
  const arrived: number[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrived.push(performance.now());
      res.writeHead(201).end();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, arrived, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function deliveryRates() {
  const store = await freshStore('sqlite', 'notify-rate');
  const receiver = await pushReceiver();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
  });
  smtp.on('error', () => {});
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
  const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  try {
    const clock = new FakeClock(DUE_AT);
    const opened = await openContext(
      loadConfig({ ...store.env, LOG_LEVEL: 'warn', REMOTE_FETCH_ALLOW: '127.0.0.1' }),
      { clock },
    );
    const { ctx } = opened;
    try {
      const keys = deviceKeys();
      const owners: string[] = [];
      const rows = Array.from({ length: MESSAGES }, (_, i) => {
        const owner = `wrk_bench_${i}`;
        owners.push(owner);
        return {
          id: newId('psh', Date.now()),
          audience: 'worker' as const,
          owner_id: owner,
          company_id: null,
          endpoint: `${receiver.origin}/push/${i}`,
          p256dh: keys.p256dh,
          auth: keys.auth,
          expiration_time: null,
          created_at: DUE_AT,
          updated_at: DUE_AT,
        };
      });
      for (let i = 0; i < rows.length; i += 250) {
        await ctx.db
          .insertInto('push_subscriptions')
          .values(rows.slice(i, i + 250))
          .execute();
      }
      const notice = {
        title: 'New task for @demo.kitchen',
        body: 'New task for @demo.kitchen, window 14:00, report by 16:00',
        url: '/dashboard/worker/tasks/qit_x',
        tag: 'task-qit_x',
      };
      await queuePushes(
        ctx.db,
        owners.map((o, i) => ({
          audience: 'worker' as const,
          ownerIds: [o],
          companyId: null,
          kind: 'task_released',
          notice,
          dedupeKey: `bench:${i}`,
          ttlSeconds: 3600,
        })),
        clock.now(),
      );
      const sender = pushSender(ctx.db, { vapid: ctx.vapid, allow: ctx.config.remoteFetchAllow });
      let t0 = performance.now();
      await deliverDueMail(ctx, sender, 'push');
      const outboxPush = MESSAGES / ((performance.now() - t0) / 1000);
      const body = randomBytes(200);
      t0 = performance.now();
      for (let i = 0; i < MESSAGES; i += 4) {
        await Promise.all(
          [0, 1, 2, 3].map((k) =>
            fetch(`${receiver.origin}/bare/${i + k}`, { method: 'POST', body }).then((r) =>
              r.arrayBuffer(),
            ),
          ),
        );
      }
      const barePush = MESSAGES / ((performance.now() - t0) / 1000);

      await enqueueMany(
        ctx.db,
        Array.from({ length: MESSAGES }, (_, i) => ({
          companyId: null,
          kind: 'invite',
          to: `p${i}@bench.example`,
          subject: 'Join Bench on Slotline',
          text: 'Choose your password: https://slotline.example/dashboard/welcome?token=x',
        })),
        clock.now(),
      );
      const mailer = smtpMailer(smtpUrl, 'Slotline <no-reply@bench.example>', 'bench.example');
      t0 = performance.now();
      await deliverDueMail(ctx, mailer);
      const outboxMail = MESSAGES / ((performance.now() - t0) / 1000);
      mailer.close();
      const bare = nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: 4 });
      t0 = performance.now();
      for (let i = 0; i < MESSAGES; i += 4) {
        await Promise.all(
          [0, 1, 2, 3].map((k) =>
            bare.sendMail({
              from: 'no-reply@bench.example',
              to: `b${i + k}@bench.example`,
              subject: 'Join Bench on Slotline',
              text: 'Choose your password',
            }),
          ),
        );
      }
      const bareMail = MESSAGES / ((performance.now() - t0) / 1000);
      bare.close();
      const r = (x: number) => Math.round(x);
      console.log(
        `  pushes: outbox ${r(outboxPush)}/s, bare POSTs ${r(barePush)}/s: ratio ${(outboxPush / barePush).toFixed(2)}`,
      );
      console.log(
        `  mail: outbox ${r(outboxMail)}/s, bare SMTP sends ${r(bareMail)}/s: ratio ${(outboxMail / bareMail).toFixed(2)}`,
      );
      return {
        push: {
          outboxPerSecond: r(outboxPush),
          barePerSecond: r(barePush),
          ratio: outboxPush / barePush,
        },
        mail: {
          outboxPerSecond: r(outboxMail),
          barePerSecond: r(bareMail),
          ratio: outboxMail / bareMail,
        },
      };
    } finally {
      await opened.close();
    }
  } finally {
    await receiver.close();
    await new Promise<void>((r) => smtp.close(() => r()));
    await store.drop();
  }
}

/** Release to push received, with the push loop running as `serve` runs it. */
async function releaseToPush() {
  const store = await freshStore('sqlite', 'notify-latency');
  const receiver = await pushReceiver();
  try {
    const clock = new FakeClock(DUE_AT);
    const opened = await openContext(
      loadConfig({ ...store.env, LOG_LEVEL: 'warn', REMOTE_FETCH_ALLOW: '127.0.0.1' }),
      { clock },
    );
    const { ctx } = opened;
    const loop = startOutboxLoop(ctx, {
      pollMs: 1000,
      channel: 'push',
      mailer: pushSender(ctx.db, { vapid: ctx.vapid, allow: ctx.config.remoteFetchAllow }),
      onError: (err) => console.error(err),
    });
    try {
      const company = await createCompany(ctx.db, clock, ctx.config.plans, {
        name: 'Bench',
        plan: 'scale',
      });
      const n = 500;
      const due = await seedDueAccounts(ctx.db, company.companyId, n);
      await seedWorkers(ctx.db, due.accountIds, `${receiver.origin}`);
      const t0 = performance.now();
      const r = await releaseDue(ctx, clock.now());
      // One device per worker, and one push per worker for its tasks of the pass.
      const written = await ctx.db
        .selectFrom('outbox_messages')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('channel', '=', 'push')
        .executeTakeFirstOrThrow();
      const deadline = Date.now() + 60_000;
      while (receiver.arrived.length < Number(written.n) && Date.now() < deadline) {
        await new Promise((res) => setTimeout(res, 20));
      }
      const latencies = receiver.arrived.map((at) => at - t0);
      const p50 = quantile(latencies, 0.5);
      const p99 = quantile(latencies, 0.99);
      console.log(
        `  release to push received, ${latencies.length} pushes (one per worker) from one pass of ${r.released} releases: p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms (target p99 < ${LATENCY_TARGET_MS} ms: ${p99 < LATENCY_TARGET_MS ? 'PASS' : 'FAIL'})`,
      );
      return { pushes: latencies.length, p50Ms: p50, p99Ms: p99, pass: p99 < LATENCY_TARGET_MS };
    } finally {
      await loop.stop();
      await opened.close();
    }
  } finally {
    await receiver.close();
    await store.drop();
  }
}

export async function benchNotify() {
  console.log('\nnotify: a release pass with every worker subscribed, beside one without');
  const release = [await releaseRatio('sqlite')];
  if (await pgReachable()) release.push(await releaseRatio('postgres'));
  else console.log('  PostgreSQL: not reachable, skipped');
  console.log('notify: the outbox beside bare sends to the same receivers (1,000 each)');
  const rates = await deliveryRates();
  console.log('notify: release to push received');
  const latency = await releaseToPush();
  return { release, rates, latency };
}
