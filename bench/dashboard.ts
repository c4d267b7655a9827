// The dashboard's two heaviest pages on the embedded database, in process: the approvals
// inbox with 1,000 items waiting (500 posts to two accounts each; its first page of 25) and the calendar of 100
// accounts with queued items, against a bare Fastify route sending an HTML page of the same
// size, measured in the same run. Also the bytes of a first load of the inbox: its HTML and
// every stylesheet and script it references (media excluded).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import type { App } from '../src/app.ts';
import { buildApp } from '../src/app.ts';
import { openContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { reportWorkerStatus } from '../src/modules/accounts/accounts.state.ts';
import { createPost } from '../src/modules/posts/post-create.service.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { insertReadyVideo, seedBenchCompany } from './posts.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const TARGET_P99_MS = 50;
const TARGET_FIRST_LOAD_BYTES = 150 * 1024;

interface Timing {
  p50: number;
  p99: number;
}

function percentiles(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
  return { p50: at(0.5), p99: at(0.99) };
}

/** Server time of `rounds` sequential requests, each timed around app.inject. */
async function time(app: Pick<App, 'inject'>, url: string, cookie: string): Promise<Timing> {
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    const res = await app.inject({ method: 'GET', url, headers: { cookie } });
    samples.push(performance.now() - t0);
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
  }
  return percentiles(samples);
}

/** Seeds the company, its accounts and posts; returns a signed-in session cookie. */
async function seed(app: App, ctx: Awaited<ReturnType<typeof openContext>>['ctx']) {
  const { company, principal, accountIds } = await seedBenchCompany(ctx, 100);
  for (const accountId of accountIds) {
    await reportWorkerStatus(ctx, company.companyId, accountId, 'active', undefined);
  }
  const uploadId = await insertReadyVideo(ctx, company.companyId);
  const post = (n: number, accounts: string[], skipApproval: boolean) =>
    createPost(
      ctx,
      principal,
      {
        media: [uploadId],
        accountIds: accounts,
        skipApproval,
        caption: `Benchmark post ${n}: a caption of an ordinary length, with a few words more.`,
        hashtags: ['bench', 'dashboard'],
      },
      undefined,
      () => {},
    );
  // 1,000 items waiting for approval, and three queued items for every account.
  for (let n = 0; n < 500; n++) {
    await post(
      n,
      [accountIds[(2 * n) % 100] as string, accountIds[(2 * n + 1) % 100] as string],
      false,
    );
  }
  for (let n = 0; n < 300; n++) await post(500 + n, [accountIds[n % 100] as string], true);

  const { password } = await createUser(ctx.db, ctx.clock, {
    companyId: company.companyId,
    email: 'bench@example.com',
    role: 'editor',
  });
  const form = await app.inject({ method: 'GET', url: '/dashboard/sign-in' });
  const token = /name="_csrf" value="([^"]*)"/.exec(form.body)?.[1] ?? '';
  const signedIn = await app.inject({
    method: 'POST',
    url: '/dashboard/sign-in',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `slotline_sign_in=${token}`,
    },
    payload: new URLSearchParams({ _csrf: token, email: 'bench@example.com', password }).toString(),
  });
  const session = ([] as string[])
    .concat(signedIn.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('slotline_session='));
  if (!session) throw new Error('sign-in failed');
  return session.split(';')[0] as string;
}

/**
 * The inbox's HTML plus every stylesheet and script it references: as sent to a browser
 * that accepts compression (the bytes on the wire), and uncompressed.
 */
async function firstLoad(app: App, cookie: string) {
  const get = (url: string, encoding?: string) =>
    app.inject({
      method: 'GET',
      url,
      headers: { cookie, ...(encoding ? { 'accept-encoding': encoding } : {}) },
    });
  const page = await get('/dashboard/approvals');
  const assets = [...page.body.matchAll(/(?:href|src)="(\/dashboard\/assets\/[^"]+)"/g)].map(
    (m) => m[1] as string,
  );
  let raw = page.rawPayload.length;
  let wire = (await get('/dashboard/approvals', 'br, gzip')).rawPayload.length;
  for (const url of new Set(assets)) {
    raw += (await get(url)).rawPayload.length;
    wire += (await get(url, 'br, gzip')).rawPayload.length;
  }
  return { html: page.rawPayload.length, assets: assets.length, raw, wire };
}

export async function benchDashboard(): Promise<unknown> {
  const dir = await mkdtemp(join(tmpdir(), 'slotline-bench-dashboard-'));
  const opened = await openContext(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'warn' }));
  const app = await buildApp(opened.ctx);
  const bare = Fastify();
  try {
    await app.ready();
    const t0 = performance.now();
    const cookie = await seed(app, opened.ctx);
    const seededS = (performance.now() - t0) / 1000;
    const inboxHtml = (
      await app.inject({ method: 'GET', url: '/dashboard/approvals', headers: { cookie } })
    ).body;
    const calendarHtml = (
      await app.inject({ method: 'GET', url: '/dashboard/calendar', headers: { cookie } })
    ).body;
    bare.get('/inbox', async (_req, reply) => reply.type('text/html').send(inboxHtml));
    bare.get('/calendar', async (_req, reply) => reply.type('text/html').send(calendarHtml));
    await bare.ready();

    // Interleaved, so load from elsewhere on the machine hits both alike.
    const inbox = await time(app, '/dashboard/approvals', cookie);
    const inboxBare = await time(bare, '/inbox', '');
    const calendar = await time(app, '/dashboard/calendar', cookie);
    const calendarBare = await time(bare, '/calendar', '');
    const load = await firstLoad(app, cookie);

    const fmt = (n: number) => `${n.toFixed(2).padStart(7)} ms`;
    console.log(
      `\ndashboard pages, SQLite, in process (seeded in ${seededS.toFixed(1)} s; ${ROUNDS} sequential requests each)`,
    );
    const line = (name: string, t: Timing, b: Timing) =>
      console.log(
        `  ${name.padEnd(44)} p50 ${fmt(t.p50)}  p99 ${fmt(t.p99)}   bare same bytes p50 ${fmt(b.p50)}  x${(t.p50 / b.p50).toFixed(1)}`,
      );
    line('approvals, 1,000 pending items (page of 25)', inbox, inboxBare);
    line('calendar, 100 accounts x 7 days', calendar, calendarBare);
    const p99ok = inbox.p99 < TARGET_P99_MS && calendar.p99 < TARGET_P99_MS;
    console.log(`  target p99 < ${TARGET_P99_MS} ms: ${p99ok ? 'PASS' : 'FAIL'}`);
    console.log(
      `  first load of the inbox: ${(load.wire / 1024).toFixed(1)} KB sent compressed (${(load.raw / 1024).toFixed(1)} KB uncompressed: HTML ${(load.html / 1024).toFixed(1)} KB + ${load.assets} assets); target < 150 KB: ${load.wire < TARGET_FIRST_LOAD_BYTES ? 'PASS' : 'FAIL'}`,
    );
    return { inbox, inboxBare, calendar, calendarBare, firstLoad: load, seededS };
  } finally {
    await bare.close();
    await app.close();
    await opened.close();
    await rm(dir, { recursive: true, force: true });
  }
}
