// The MCP server against the REST API it stands for, both measured in this run on one
// service (`bin/slotline.js serve`, SQLite, CPU 0; load from this process on CPU 1):
//
// - getPost and createPost as MCP tool calls (POST /mcp, JSON-RPC tools/call) against
//   GET /v2/posts/{postId} and POST /v2/posts with the same arguments. Time per call is
//   measured one call at a time on one connection (what an agent waits for), in rounds
//   alternating between the two; the target is a tool call within 1.3x of REST's time.
//   CPU time of the service per call is printed beside it.
//
// The import half (`slotline-client import` of 1,000 rows) is bench/import.ts, run with it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { openContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { createPost } from '../src/modules/posts/post-create.service.ts';
import { insertReadyVideo, seedBenchCompany } from './posts.ts';
import { load, median, startChild, stopChild, warm, type LoadResult } from './lib.ts';

const PORT = 18380;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET_RATIO = 1.3;
const MCP_HEADERS = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': '2025-06-18',
};

interface Pair {
  benchmark: string;
  mcp: LoadResult;
  rest: LoadResult;
  /** MCP's time per call over REST's. */
  ratio: number;
  target: string;
  pass: boolean;
}

function toolCall(name: string, args: Record<string, unknown>, id = 1): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args },
  });
}

/** One body per request: a create needs a key of its own to create each time. */
function numbered(makeBody: (n: number) => string): autocannon.Request[] {
  let n = 0;
  return [{ setupRequest: (req) => ({ ...req, body: makeBody(n++) }) }];
}

function perCall(r: LoadResult): number {
  return Math.round((1000 / Math.max(1, r.requestsPerSec)) * 1000) / 1000;
}

function print(p: Pair): void {
  const row = (r: LoadResult) =>
    `${r.name.padEnd(30)} ${String(perCall(r)).padStart(6)} ms/call   ${String(r.requestsPerSec).padStart(5)} calls/s   p99 ${String(r.p99Ms).padStart(3)} ms   non-2xx ${r.non2xx}   CPU ${r.cpuMsPerRequest ?? '?'} ms/call`;
  console.log(`\n${p.benchmark}`);
  console.log(`  ${row(p.mcp)}`);
  console.log(`  ${row(p.rest)}`);
  console.log(`  ratio ${p.ratio} (target ${p.target}) ${p.pass ? 'PASS' : 'FAIL'}`);
}

async function pair(
  benchmark: string,
  mcp: () => Promise<LoadResult>,
  rest: () => Promise<LoadResult>,
): Promise<Pair> {
  const mcps: LoadResult[] = [];
  const rests: LoadResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    mcps.push(await mcp());
    rests.push(await rest());
  }
  const m = median(mcps);
  const r = median(rests);
  const ratio = Math.round((r.requestsPerSec / Math.max(1, m.requestsPerSec)) * 1000) / 1000;
  const clean = [...mcps, ...rests].every((x) => x.non2xx === 0 && x.errors === 0);
  const result = {
    benchmark: `${benchmark}; median of ${ROUNDS} alternating rounds`,
    mcp: m,
    rest: r,
    ratio,
    target: `MCP time per call <= ${TARGET_RATIO}x REST's`,
    pass: clean && ratio <= TARGET_RATIO,
  };
  print(result);
  return result;
}

export async function benchMcp(): Promise<unknown> {
  const dir = await mkdtemp(join(tmpdir(), 'slotline-bench-mcp-'));
  const env = { DATA_DIR: dir, PORT: String(PORT), LOG_LEVEL: 'warn' };
  const opened = await openContext(loadConfig(env));
  const { ctx } = opened;
  let postId: string;
  let create: { media: string[]; accountIds: string[]; caption: string; hashtags: string[] };
  let secret: string;
  try {
    const { key, principal, accountIds, company } = await seedBenchCompany(ctx, 3);
    secret = key.secret;
    const uploadId = await insertReadyVideo(ctx, company.companyId);
    create = {
      media: [uploadId],
      accountIds,
      caption: 'Morning routine: three things that changed how I start the day',
      hashtags: ['morning', 'routine'],
    };
    const written = await createPost(ctx, principal, create, undefined);
    postId = written.post.postId;
  } finally {
    await opened.close();
  }

  const base = `http://127.0.0.1:${PORT}`;
  const auth = { authorization: `Bearer ${secret}` };
  const service = await startChild(
    'bin/slotline.js',
    ['serve'],
    { ...process.env, ...env },
    `${base}/v2/openapi.json`,
  );
  const one = { connections: 1, duration: 4, pid: service.pid } as const;
  try {
    const mcpHeaders = { ...auth, ...MCP_HEADERS };
    const getBody = toolCall('getPost', { postId });
    // A tool error still answers HTTP 200: check the calls succeed before timing them.
    for (const body of [getBody, toolCall('createPost', { ...create, idempotencyKey: 'check' })]) {
      const res = await fetch(`${base}/mcp`, { method: 'POST', headers: mcpHeaders, body });
      const text = await res.text();
      if (
        res.status !== 200 ||
        (JSON.parse(text) as { result?: { isError?: boolean } }).result?.isError
      ) {
        throw new Error(`the MCP call failed: ${res.status} ${text.slice(0, 500)}`);
      }
    }
    await warm(`${base}/mcp`, mcpHeaders, { method: 'POST', body: getBody, duration: 2 });
    await warm(`${base}/v2/posts/${postId}`, auth, { duration: 2 });
    const get = await pair(
      'getPost: MCP tool call against GET /v2/posts/{postId}, one call at a time',
      () =>
        load('MCP tools/call getPost', `${base}/mcp`, mcpHeaders, {
          ...one,
          method: 'POST',
          body: getBody,
        }),
      () => load('REST GET /v2/posts/{postId}', `${base}/v2/posts/${postId}`, auth, one),
    );

    let round = 0;
    const mcpCreate = () => {
      const prefix = `m${round++}`;
      return load('MCP tools/call createPost', `${base}/mcp`, mcpHeaders, {
        ...one,
        method: 'POST',
        requests: numbered((n) =>
          toolCall('createPost', { ...create, idempotencyKey: `${prefix}-${n}` }, n),
        ),
      });
    };
    const restCreate = () => {
      const prefix = `r${round++}`;
      let n = 0;
      return load(
        'REST POST /v2/posts',
        `${base}/v2/posts`,
        { ...auth, 'content-type': 'application/json' },
        {
          ...one,
          method: 'POST',
          body: JSON.stringify(create),
          requests: [
            {
              setupRequest: (req) => ({
                ...req,
                headers: { ...req.headers, 'idempotency-key': `${prefix}-${n++}` },
              }),
            },
          ],
        },
      );
    };
    await mcpCreate();
    await restCreate();
    const created = await pair(
      'createPost: MCP tool call against POST /v2/posts (a ready video to 3 accounts, a new key each), one call at a time',
      mcpCreate,
      restCreate,
    );
    return { get, create: created };
  } finally {
    await stopChild(service);
    await rm(dir, { recursive: true, force: true });
  }
}
