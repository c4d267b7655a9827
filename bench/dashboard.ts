// The dashboard's heaviest pages on the embedded database, in process, each against a bare
// Fastify route sending an HTML page of the same size, measured in the same run: the
// approvals inbox with 1,000 items waiting (500 posts to two accounts each; its first page of
// 25), the calendar of 100 accounts with 10,000 posts (a month, a week and a day of it) and
// the post composer. Then the first load of every dashboard page: its HTML and every
// stylesheet and script it references (media excluded), beside the 150 KB budget.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import type { Insertable } from 'kysely';
import type { App } from '../src/app.ts';
import { buildApp } from '../src/app.ts';
import { openContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import type { AppContext } from '../src/context.ts';
import type { PostsTable, QueueItemsTable } from '../src/db/types.ts';
import { FakeClock } from '../src/lib/clock.ts';
import { newId } from '../src/lib/ids.ts';
import { reportWorkerStatus } from '../src/modules/accounts/accounts.state.ts';
import { setCompanySchedule } from '../src/modules/companies/companies.service.ts';
import { approve } from '../src/modules/items/items.service.ts';
import { createPost } from '../src/modules/posts/post-create.service.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { assignAccounts, createWorker } from '../src/modules/workers/workers.service.ts';
import { queueItemRow, videoPostRow } from './due-accounts.ts';
import { insertReadyVideo, seedBenchCompany } from './posts.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const TARGET_P99_MS = 50;
const TARGET_FIRST_LOAD_BYTES = 150 * 1024;
/** Posts of the calendar, one account each, spread evenly over the 100 accounts. */
const CALENDAR_POSTS = 10_000;
/** The slots of a UTC account's day (the standard windows). */
const SLOT_HOURS = [8, 11, 14, 17];
/**
 * The service's clock, mid-month: the calendar's month has fifteen days of releases behind
 * it and the rest of its posts queued ahead, whatever day the benchmark runs.
 */
const NOW = '2026-03-16T12:00:00.000Z';
/** Rows per multi-row insert (posts have 19 columns). */
const ROWS = 500;
const DAY_MS = 86_400_000;

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

/**
 * Server time of `rounds` sequential requests, each timed around app.inject; `before` runs
 * ahead of each one, untimed.
 */
/** A subject's request beside its URL and the session's cookie. */
interface Request {
  method: 'GET' | 'POST';
  payload?: string;
  headers: Record<string, string>;
}

async function time(
  app: Pick<App, 'inject'>,
  url: string,
  cookie: string,
  before?: (round: number) => Promise<unknown>,
  request?: (round: number) => Request,
): Promise<Timing> {
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    await before?.(i);
    const extra = request?.(i);
    const t0 = performance.now();
    const res = await app.inject({
      method: extra?.method ?? 'GET',
      url,
      headers: { cookie, ...extra?.headers },
      ...(extra?.payload !== undefined ? { payload: extra.payload } : {}),
    });
    samples.push(performance.now() - t0);
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
  }
  return percentiles(samples);
}

/**
 * 10,000 posts of the calendar written straight into the tables, shaped as the API writes
 * them (a ready video with its thumbnail, to one account): each account's slots of this
 * month before now were released (one in ten failed, the rest posted), and the rest of its
 * hundred posts are queued, planned from now on.
 */
export async function seedCalendar(
  ctx: AppContext,
  companyId: string,
  accountIds: readonly string[],
  uploadId: string,
): Promise<{ released: number; queued: number }> {
  const now = ctx.clock.now().getTime();
  const monthStart = Date.parse(`${new Date(now).toISOString().slice(0, 7)}-01T00:00:00.000Z`);
  const past: number[] = [];
  for (let day = monthStart; day < now; day += DAY_MS) {
    for (const h of SLOT_HOURS) if (day + h * 3_600_000 < now) past.push(day + h * 3_600_000);
  }
  const perAccount = CALENDAR_POSTS / accountIds.length;
  const queuedAt = new Date(monthStart - DAY_MS).toISOString();
  const posts: Insertable<PostsTable>[] = [];
  const items: Insertable<QueueItemsTable>[] = [];
  let released = 0;
  for (const [a, accountId] of accountIds.entries()) {
    for (let n = 0; n < perAccount; n++) {
      const postId = newId('pst');
      const slot = past[n];
      const fields: Partial<QueueItemsTable> = { skip_approval: 1, approved_at: queuedAt };
      let status = 'queued';
      if (slot !== undefined) {
        const at = new Date(slot).toISOString();
        status = (a + n) % 10 === 0 ? 'failed' : 'posted';
        released++;
        Object.assign(fields, {
          status,
          released_at: at,
          claimed_at: at,
          reported_at: at,
          posted_at: status === 'posted' ? at : null,
          post_url: status === 'posted' ? `https://example.com/p/${postId}` : null,
          failure_reason: status === 'failed' ? 'The app logged out during the upload' : null,
        });
      }
      posts.push(
        videoPostRow(postId, companyId, queuedAt, {
          status,
          media_upload_ids: JSON.stringify([uploadId]),
          thumbnail_upload_id: uploadId,
          caption: `Calendar post ${a}-${n}: a caption of an ordinary length, with a few words more. #bench`,
          hashtags: '["bench"]',
        }),
      );
      items.push(queueItemRow(newId('qit'), companyId, postId, accountId, queuedAt, fields));
    }
  }
  for (let i = 0; i < posts.length; i += ROWS) {
    await ctx.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('posts')
        .values(posts.slice(i, i + ROWS))
        .execute();
      await tx
        .insertInto('queue_items')
        .values(items.slice(i, i + ROWS))
        .execute();
    });
  }
  return { released, queued: items.length - released };
}

/** Seeds the company, its accounts, worker and posts; returns a signed-in session cookie. */
async function seed(app: App, ctx: AppContext) {
  const { company, principal, accountIds } = await seedBenchCompany(ctx, 100);
  for (const accountId of accountIds) {
    await reportWorkerStatus(ctx, company.companyId, accountId, 'active', undefined);
  }
  const worker = await createWorker(ctx.db, ctx.clock, { name: 'Bench worker', timezone: 'UTC' });
  await assignAccounts(ctx.db, ctx.clock, worker.workerId, accountIds);
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
    );
  // 1,000 items waiting for approval.
  const pending: string[] = [];
  for (let n = 0; n < 500; n++) {
    const written = await post(
      n,
      [accountIds[(2 * n) % 100] as string, accountIds[(2 * n + 1) % 100] as string],
      false,
    );
    pending.push(written.post.postId);
  }
  const calendar = await seedCalendar(ctx, company.companyId, accountIds, uploadId);

  // An admin sees every page.
  const { password } = await createUser(ctx.db, ctx.clock, {
    companyId: company.companyId,
    email: 'bench@example.com',
    role: 'admin',
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
  return {
    cookie: session.split(';')[0] as string,
    companyId: company.companyId,
    postId: pending[0] as string,
    // Approved by the calendar's writes, from the last one back (the inbox lists the first).
    pending: [...pending].reverse(),
    accountId: accountIds[0] as string,
    accountIds,
    calendar,
  };
}

interface FirstLoad {
  url: string;
  status: number;
  html: number;
  assets: number;
  raw: number;
  wire: number;
}

/**
 * A page's HTML plus every stylesheet and script it references: as sent to a browser that
 * accepts compression (the bytes on the wire), and uncompressed.
 */
async function firstLoad(app: App, cookie: string, url: string): Promise<FirstLoad> {
  const get = (path: string, encoding?: string) =>
    app.inject({
      method: 'GET',
      url: path,
      headers: { cookie, ...(encoding ? { 'accept-encoding': encoding } : {}) },
    });
  const page = await get(url);
  const assets = new Set(
    [...page.body.matchAll(/(?:href|src)="(\/dashboard\/assets\/[^"]+\.(?:css|js))"/g)].map(
      (m) => m[1] as string,
    ),
  );
  let raw = page.rawPayload.length;
  let wire = (await get(url, 'br, gzip')).rawPayload.length;
  for (const asset of assets) {
    raw += (await get(asset)).rawPayload.length;
    wire += (await get(asset, 'br, gzip')).rawPayload.length;
  }
  return {
    url,
    status: page.statusCode,
    html: page.rawPayload.length,
    assets: assets.size,
    raw,
    wire,
  };
}

/** Every page the dashboard's navigation links to, and the pages one step inside them. */
async function dashboardPages(
  app: App,
  cookie: string,
  inside: { postId: string; accountId: string },
): Promise<string[]> {
  const home = await app.inject({
    method: 'GET',
    url: '/dashboard/approvals',
    headers: { cookie },
  });
  const header = home.body.slice(0, home.body.indexOf('<main'));
  const linked = [...header.matchAll(/href="(\/dashboard\/[^"#]*)"/g)]
    .map((m) => (m[1] as string).replace(/&amp;/g, '&'))
    .filter((u) => !u.startsWith('/dashboard/assets/') && u !== '/dashboard/');
  const a = encodeURIComponent(inside.accountId);
  return [
    ...new Set([
      ...linked,
      '/dashboard/calendar?view=month',
      '/dashboard/calendar?view=day',
      `/dashboard/calendar?view=month&account=${a}`,
      `/dashboard/posts/${inside.postId}`,
      '/dashboard/accounts/new',
      `/dashboard/accounts/${a}/schedule`,
      `/dashboard/accounts/${a}/analytics`,
    ]),
  ];
}

export async function benchDashboard(): Promise<unknown> {
  const dir = await mkdtemp(join(tmpdir(), 'slotline-bench-dashboard-'));
  const opened = await openContext(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'warn' }), {
    clock: new FakeClock(NOW),
  });
  const app = await buildApp(opened.ctx);
  const bare = Fastify();
  try {
    await app.ready();
    const t0 = performance.now();
    const seeded = await seed(app, opened.ctx);
    const { cookie } = seeded;
    const seededS = (performance.now() - t0) / 1000;
    // The calendar keeps what it reads and plans while the data is unchanged, and each
    // account's plan while its own items, windows and open slot are. "After a write" approves
    // a post waiting in the company ahead of each request (its two accounts get an item more
    // to plan), as the approvals inbox does. "After a schedule change" sets other company
    // windows ahead of each request, so every account is planned afresh, as also happens
    // once a new slot opens.
    let approved = 0;
    const write = () => {
      const postId = seeded.pending[approved++];
      if (postId === undefined) throw new Error('more rounds than posts waiting for approval');
      return approve(opened.ctx, { companyId: seeded.companyId, postId });
    };
    const schedules = ['["09:00","12:00","15:00","18:00"]', '["08:30","11:30","14:30","17:30"]'];
    const changeSchedule = (i: number) =>
      setCompanySchedule(
        opened.ctx.db,
        seeded.companyId,
        schedules[i % 2] as string,
        opened.ctx.clock.now().toISOString(),
      );
    // A calendar move: one queued item of the first account, moved between two of its free
    // windows in turn, as the calendar's script sends it.
    const movable = await opened.ctx.db
      .selectFrom('queue_items')
      .select('id')
      .where('company_id', '=', seeded.companyId)
      .where('account_id', '=', seeded.accountId)
      .where('status', '=', 'queued')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const moveUrl = `/dashboard/items/${movable.id}/window`;
    // The composer's preview of 50 chosen accounts, as its script asks for it.
    const previewUrl = `/dashboard/compose/windows?${new URLSearchParams([
      ['when', 'next'] as [string, string],
      ...seeded.accountIds.slice(0, 50).map((id): [string, string] => ['account', id]),
    ]).toString()}`;
    const composer = await app.inject({
      method: 'GET',
      url: '/dashboard/compose',
      headers: { cookie },
    });
    const csrf = /name="_csrf" value="([^"]*)"/.exec(composer.body)?.[1] ?? '';
    const windows = await app.inject({
      method: 'GET',
      url: moveUrl,
      headers: { cookie, accept: 'application/json' },
    });
    const free = windows
      .json<{ days: { windows: { at: string; state: string }[] }[] }>()
      .days.flatMap((d) => d.windows)
      .filter((w) => w.state === 'free')
      .slice(-2)
      .map((w) => w.at);
    if (free.length < 2) throw new Error(`the item has no two free windows: ${windows.body}`);
    const subjects: {
      name: string;
      url: string;
      accept?: string;
      request?: (i: number) => Request;
      before?: (i: number) => Promise<unknown>;
      /** Run once the subject is measured. */
      after?: () => Promise<unknown>;
    }[] = [
      { name: 'approvals, 1,000 pending items (page of 25)', url: '/dashboard/approvals' },
      { name: 'calendar month, 100 accounts, 10,000 posts', url: '/dashboard/calendar?view=month' },
      {
        name: 'calendar month, each request after a write',
        url: '/dashboard/calendar?view=month',
        before: write,
      },
      {
        name: 'calendar month, each after a schedule change',
        url: '/dashboard/calendar?view=month',
        before: changeSchedule,
        after: () => setCompanySchedule(opened.ctx.db, seeded.companyId, null, NOW),
      },
      { name: 'calendar week, 100 accounts', url: '/dashboard/calendar' },
      { name: 'calendar day, 100 accounts (page of 20)', url: '/dashboard/calendar?view=day' },
      { name: 'post composer', url: '/dashboard/compose' },
      {
        name: 'composer window preview, 50 accounts',
        url: previewUrl,
      },
      {
        name: 'composer window preview, each after a write',
        url: previewUrl,
        before: write,
      },
      { name: 'calendar drag: an item’s windows (JSON)', url: moveUrl, accept: 'application/json' },
      {
        name: 'calendar move to a free window (JSON)',
        url: moveUrl,
        accept: 'application/json',
        request: (i) => ({
          method: 'POST',
          headers: {
            accept: 'application/json',
            'content-type': 'application/x-www-form-urlencoded',
            'x-csrf-token': csrf,
          },
          payload: new URLSearchParams({ _csrf: csrf, at: free[i % 2] as string }).toString(),
        }),
      },
    ];
    const skipped: string[] = [];
    const bodies: string[] = [];
    for (const s of [...subjects]) {
      const first = s.request?.(1);
      const res = await app.inject({
        method: first?.method ?? 'GET',
        url: s.url,
        headers: { cookie, ...(s.accept ? { accept: s.accept } : {}), ...first?.headers },
        ...(first?.payload !== undefined ? { payload: first.payload } : {}),
      });
      if (res.statusCode === 404) {
        skipped.push(`  ${s.name}: SKIPPED, ${s.url} answers 404 (the page is not registered)`);
        subjects.splice(subjects.indexOf(s), 1);
        continue;
      }
      if (res.statusCode !== 200) throw new Error(`${s.url} answered ${res.statusCode}`);
      const type = String(res.headers['content-type'] ?? 'text/html');
      bare.get(`/bare/${bodies.length}`, async (_req, reply) => reply.type(type).send(res.body));
      bodies.push(res.body);
    }
    await bare.ready();

    // Interleaved, so load from elsewhere on the machine hits both alike.
    const timings: { name: string; url: string; subject: Timing; baseline: Timing }[] = [];
    for (const [i, s] of subjects.entries()) {
      const accept = s.accept;
      const subject = await time(
        app,
        s.url,
        cookie,
        s.before,
        s.request ?? (accept ? () => ({ method: 'GET', headers: { accept } }) : undefined),
      );
      await s.after?.();
      const baseline = await time(bare, `/bare/${i}`, '');
      timings.push({ name: s.name, url: s.url, subject, baseline });
    }

    const pages = await dashboardPages(app, cookie, seeded);
    const loads: FirstLoad[] = [];
    for (const url of pages) loads.push(await firstLoad(app, cookie, url));

    const fmt = (n: number) => `${n.toFixed(2).padStart(7)} ms`;
    const kb = (n: number) => `${(n / 1024).toFixed(1).padStart(6)} KB`;
    console.log(
      `\ndashboard pages, SQLite, in process (seeded in ${seededS.toFixed(1)} s: ${seeded.calendar.released} calendar items released this month, ${seeded.calendar.queued} queued; ${ROUNDS} sequential requests each)`,
    );
    for (const t of timings) {
      console.log(
        `  ${t.name.padEnd(46)} p50 ${fmt(t.subject.p50)}  p99 ${fmt(t.subject.p99)}   bare same bytes p50 ${fmt(t.baseline.p50)}  x${(t.subject.p50 / t.baseline.p50).toFixed(1)}`,
      );
    }
    for (const line of skipped) console.log(line);
    const p99ok = timings.every((t) => t.subject.p99 < TARGET_P99_MS) && skipped.length === 0;
    console.log(
      `  target p99 < ${TARGET_P99_MS} ms: ${p99ok ? 'PASS' : timings.every((t) => t.subject.p99 < TARGET_P99_MS) ? 'PASS for the pages measured' : 'FAIL'}`,
    );
    console.log(
      `\nfirst load of each page: HTML + its stylesheets and scripts, uncompressed (beside the ${TARGET_FIRST_LOAD_BYTES / 1024} KB budget; compressed on the wire)`,
    );
    for (const l of loads) {
      if (l.status === 404) {
        console.log(`  ${l.url.padEnd(58)} SKIPPED, answers 404`);
        continue;
      }
      console.log(
        `  ${l.url.padEnd(58)} ${kb(l.raw)} (HTML ${kb(l.html)} + ${l.assets} assets) x${(l.raw / TARGET_FIRST_LOAD_BYTES).toFixed(2)} of budget, wire ${kb(l.wire)}${l.status === 200 ? '' : ` [status ${l.status}]`} ${l.raw < TARGET_FIRST_LOAD_BYTES ? 'PASS' : 'FAIL'}`,
      );
    }
    const measured = loads.filter((l) => l.status !== 404);
    const heaviest = measured.reduce((m, l) => (l.raw > m.raw ? l : m), measured[0] as FirstLoad);
    console.log(
      `  target every first load < ${TARGET_FIRST_LOAD_BYTES / 1024} KB uncompressed: ${measured.every((l) => l.raw < TARGET_FIRST_LOAD_BYTES) ? 'PASS' : 'FAIL'} (heaviest ${heaviest.url}, ${kb(heaviest.raw).trim()})`,
    );
    return { timings, skipped, firstLoads: loads, seededS, calendar: seeded.calendar };
  } finally {
    await bare.close();
    await app.close();
    await opened.close();
    await rm(dir, { recursive: true, force: true });
  }
}
