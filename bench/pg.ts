// PostgreSQL mode against the embedded database and a bare Fastify route, all
// started in this run from the compiled build:
//
// - POST /v2/posts (a ready video to 3 accounts, a new Idempotency-Key each) and
//   GET /v2/posts/{postId} at 32 connections, on a fresh PostgreSQL database, on
//   SQLite and on a bare route answering the same bytes;
// - then two service processes on the same PostgreSQL database, the same 32
//   connections split between them.
//
// Services run on CPU 0 and the load on CPU 1 (bench/lib.ts); PostgreSQL's own
// processes are not pinned. Background loops (dispatcher, simulator) are off so
// the API path alone is measured. The PostgreSQL database is dropped at the end.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type autocannon from 'autocannon';
import pg from 'pg';
import { openContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { createTag } from '../src/modules/tags/tags.service.ts';
import { createPost } from '../src/modules/posts/post-create.service.ts';
import type { CreatePostInput } from '../src/modules/posts/posts.schemas.ts';
import { insertReadyVideo, seedBenchCompany } from './posts.ts';
import { cpuSeconds, load, median, startChild, stopChild, warm, type LoadResult } from './lib.ts';

/** BENCH_ROUNDS changes the number of alternating rounds (default 2). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = 32;
const DURATION_S = 5;
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PORTS = { pg: 18480, sqlite: 18481, bare: 18482, pg2: 18483 };
const TARGET_POSTS_PER_S = 1000;
const TARGET_P99_MS = 50;
const TARGET_READ_RATIO = 0.25;

interface Target {
  env: Record<string, string>;
  headers: Record<string, string>;
  body: string;
  postId: string;
}

async function admin<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

/** A company on the scale plan (no cap or quota in the way), 3 accounts, a tag, a video. */
async function seed(env: Record<string, string>): Promise<Target> {
  const opened = await openContext(loadConfig(env));
  try {
    const { ctx } = opened;
    const { company, key, principal, accountIds } = await seedBenchCompany(ctx, 3);
    const tag = await createTag(ctx, company.companyId, { name: 'Launch', color: 'blue' });
    const uploadId = await insertReadyVideo(ctx, company.companyId);
    const input: CreatePostInput = {
      media: [uploadId],
      accountIds,
      caption: 'Morning routine: three things that changed how I start the day',
      hashtags: ['morning', 'routine', 'productivity'],
      contentGroupIds: [`tag:${tag.tagId}`],
    };
    const written = await createPost(ctx, principal, input, undefined);
    return {
      env,
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(input),
      postId: written.post.postId,
    };
  } finally {
    await opened.close();
  }
}

function service(t: Target, port: number): Promise<ChildProcess> {
  return startChild(
    'bin/slotline.js',
    ['serve'],
    { ...process.env, ...t.env, PORT: String(port) },
    `http://127.0.0.1:${port}/v2/openapi.json`,
  );
}

/** Every request a new Idempotency-Key, so each one creates a post. */
function uniqueKeys(prefix: string): autocannon.Request[] {
  let n = 0;
  return [
    {
      setupRequest: (req) => ({
        ...req,
        headers: { ...req.headers, 'idempotency-key': `${prefix}-${n++}` },
      }),
    },
  ];
}

type Kind = 'create' | 'read';
type Measured = LoadResult & { pgCpuMsPerRequest?: number };
let runs = 0;

/** The database's side of a run: its backends and the WAL writer, by pid. */
let pgPids: () => Promise<number[]> = async () => [];

/** CPU time of PostgreSQL per request during `work`, in ms, beside the service's own. */
async function withPgCpu(work: () => Promise<LoadResult>): Promise<Measured> {
  const pids = await pgPids();
  const before = pids.map(cpuSeconds);
  const r = await work();
  // Backends that ended meanwhile (NaN) count for nothing.
  const used = pids.reduce((sum, pid, i) => sum + (cpuSeconds(pid) - (before[i] ?? NaN) || 0), 0);
  const total = Math.max(1, r.requestsPerSec * DURATION_S);
  return { ...r, pgCpuMsPerRequest: Math.round((used * 1e6) / total) / 1000 };
}

function run(
  name: string,
  kind: Kind,
  t: Target,
  port: number,
  pid: number | undefined,
  connections = CONNECTIONS,
): Promise<LoadResult> {
  const base = `http://127.0.0.1:${port}/v2/posts`;
  if (kind === 'read') {
    return load(name, `${base}/${t.postId}`, t.headers, { connections, duration: DURATION_S, pid });
  }
  return load(name, base, t.headers, {
    method: 'POST',
    body: t.body,
    connections,
    duration: DURATION_S,
    requests: uniqueKeys(`r${runs++}-${port}`),
    pid,
  });
}

function row(r: Measured): string {
  const pgCpu = r.pgCpuMsPerRequest === undefined ? '' : ` + PostgreSQL ${r.pgCpuMsPerRequest}`;
  return `${r.name.padEnd(26)} ${String(r.requestsPerSec).padStart(6)} req/s   p50 ${String(r.p50Ms).padStart(3)} ms   p99 ${String(r.p99Ms).padStart(4)} ms   non-2xx ${r.non2xx}   errors ${r.errors}   CPU ${r.cpuMsPerRequest ?? '?'}${pgCpu} ms/req`;
}

const ratio = (a: LoadResult, b: LoadResult) =>
  Math.round((a.requestsPerSec / b.requestsPerSec) * 1000) / 1000;

export async function benchPg(): Promise<unknown> {
  const dbName = `slotline_bench_${randomBytes(5).toString('hex')}`;
  const dir = await mkdtemp(join(tmpdir(), 'slotline-bench-pg-'));
  const pgUrl = new URL(PG_ADMIN_URL);
  pgUrl.pathname = `/${dbName}`;
  const quiet = { LOG_LEVEL: 'warn', DISPATCH_INTERVAL_MS: '0', SIMULATOR: 'off' };
  const children: ChildProcess[] = [];
  await admin((c) => c.query(`create database ${dbName}`));
  pgPids = () =>
    admin(async (c) => {
      const res = await c.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = $1 or backend_type = 'walwriter'`,
        [dbName],
      );
      return res.rows.map((r) => r.pid);
    });
  try {
    const onPg = await seed({
      ...quiet,
      DATABASE_URL: pgUrl.toString(),
      DATA_DIR: join(dir, 'pg'),
      PORT: String(PORTS.pg),
    });
    const onSqlite = await seed({
      ...quiet,
      DATA_DIR: join(dir, 'sqlite'),
      PORT: String(PORTS.sqlite),
    });
    const pgService = await service(onPg, PORTS.pg);
    children.push(pgService);
    const sqliteService = await service(onSqlite, PORTS.sqlite);
    children.push(sqliteService);
    // The bare route answers what the service answers, read from the service.
    const created = await fetch(`http://127.0.0.1:${PORTS.pg}/v2/posts`, {
      method: 'POST',
      headers: { ...onPg.headers, 'idempotency-key': 'first' },
      body: onPg.body,
    });
    if (created.status !== 201) throw new Error(`POST /v2/posts answered ${created.status}`);
    const read = await fetch(`http://127.0.0.1:${PORTS.pg}/v2/posts/${onPg.postId}`, {
      headers: onPg.headers,
    });
    if (read.status !== 200) throw new Error(`GET /v2/posts/{id} answered ${read.status}`);
    const bodiesFile = join(dir, 'bare-bodies.json');
    await writeFile(
      bodiesFile,
      JSON.stringify({
        'POST /v2/posts': await created.text(),
        [`/v2/posts/${onPg.postId}`]: await read.text(),
      }),
    );
    const bare = await startChild(
      'bench/bare-server.ts',
      [bodiesFile],
      { ...process.env, PORT: String(PORTS.bare) },
      `http://127.0.0.1:${PORTS.bare}/`,
    );
    children.push(bare);
    const bareTarget: Target = { ...onPg, env: {} };

    const results: Record<string, unknown> = {};
    for (const kind of ['create', 'read'] as const) {
      for (const [t, port] of [
        [onPg, PORTS.pg],
        [onSqlite, PORTS.sqlite],
      ] as const) {
        const base = `http://127.0.0.1:${port}/v2/posts`;
        if (kind === 'read') await warm(`${base}/${t.postId}`, t.headers);
        else
          await warm(base, t.headers, {
            method: 'POST',
            body: t.body,
            requests: uniqueKeys(`w${port}`),
          });
      }
      // Alternate short rounds so drift in the machine's load hits every side alike.
      const sides: Record<'pg' | 'sqlite' | 'bare', Measured[]> = {
        pg: [],
        sqlite: [],
        bare: [],
      };
      for (let round = 0; round < ROUNDS; round++) {
        sides.pg.push(
          await withPgCpu(() => run('PostgreSQL', kind, onPg, PORTS.pg, pgService.pid)),
        );
        sides.sqlite.push(await run('SQLite', kind, onSqlite, PORTS.sqlite, sqliteService.pid));
        sides.bare.push(
          await run('bare Fastify, same bytes', kind, bareTarget, PORTS.bare, bare.pid),
        );
      }
      const m = { pg: median(sides.pg), sqlite: median(sides.sqlite), bare: median(sides.bare) };
      const label =
        kind === 'create'
          ? 'POST /v2/posts: ready video to 3 accounts, new Idempotency-Key each'
          : 'GET /v2/posts/{postId} (3 accounts)';
      console.log(
        `\n${label}, ${CONNECTIONS} connections, one process; median of ${ROUNDS} rounds`,
      );
      for (const r of [m.pg, m.sqlite, m.bare]) console.log(`  ${row(r)}`);
      const clean = m.pg.non2xx === 0 && m.pg.errors === 0;
      const pass =
        kind === 'create'
          ? clean && m.pg.requestsPerSec >= TARGET_POSTS_PER_S && m.pg.p99Ms < TARGET_P99_MS
          : clean && ratio(m.pg, m.bare) >= TARGET_READ_RATIO;
      const target =
        kind === 'create'
          ? `>= ${TARGET_POSTS_PER_S} posts/s with p99 < ${TARGET_P99_MS} ms`
          : `>= ${TARGET_READ_RATIO} of bare Fastify`;
      console.log(
        `  PostgreSQL / SQLite ${ratio(m.pg, m.sqlite)}, PostgreSQL / bare ${ratio(m.pg, m.bare)} (target ${target}) ${pass ? 'PASS' : 'FAIL'}`,
      );
      results[kind] = {
        ...m,
        pgOverSqlite: ratio(m.pg, m.sqlite),
        pgOverBare: ratio(m.pg, m.bare),
        target,
        pass,
        sides,
      };
    }

    // Two processes on one database; both on CPU 0 like the single one, so this
    // shows what sharing a database costs rather than how far a second core goes.
    await stopChild(sqliteService);
    children.splice(children.indexOf(sqliteService), 1);
    const second = await service(onPg, PORTS.pg2);
    children.push(second);
    for (const kind of ['create', 'read'] as const) {
      const half = CONNECTIONS / 2;
      const [a, b] = await Promise.all([
        run('process 1', kind, onPg, PORTS.pg, pgService.pid, half),
        run('process 2', kind, onPg, PORTS.pg2, second.pid, half),
      ]);
      const total = a.requestsPerSec + b.requestsPerSec;
      const single = (results[kind] as { pg: LoadResult }).pg.requestsPerSec;
      console.log(
        `\n${kind === 'create' ? 'POST /v2/posts' : 'GET /v2/posts/{postId}'}, two processes on one PostgreSQL database, ${half} connections each`,
      );
      for (const r of [a, b]) console.log(`  ${row(r)}`);
      console.log(
        `  together ${total} req/s (${Math.round((total / single) * 100) / 100} of one process)`,
      );
      results[`${kind}TwoProcesses`] = { a, b, total };
    }
    return results;
  } finally {
    for (const child of children) await stopChild(child);
    await rm(dir, { recursive: true, force: true });
    await admin((c) => c.query(`drop database if exists ${dbName} with (force)`));
  }
}
