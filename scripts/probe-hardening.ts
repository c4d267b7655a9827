// Hostile-input and race probe against two real service processes on one fresh PostgreSQL
// database (loopback only), printing what each probe counted:
//
//   npm run build && node --import tsx scripts/probe-hardening.ts [--keys N]
//
// - NUL characters in ids, query values and bodies: answers by status (a 5xx is a defect);
// - malformed percent-encoding: answers outside the error envelope (a defect);
// - sign-in bursts: 30 wrong passwords at once for one account from 30 loopback addresses
//   (limit 5 per account), and 32 at once from one address (limit 20): how many were
//   checked, and whether the right password sent among 31 wrong ones got in;
// - Idempotency-Key races: every new key sent to both processes at once, 32 keys in flight
//   per process: 5xx answers, and keys that did not get exactly one 201 and one 200.
// Exits 1 when any probe found a defect.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { openContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createCompany } from '../src/modules/companies/companies.service.ts';
import { createKey } from '../src/modules/keys/keys.service.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { DEFAULT_PLANS } from '../src/plans.ts';
import { SCOPES } from '../src/access.ts';
import { createPgDatabase } from '../test/helpers/databases.ts';
import { api, startReplicas, type HttpAnswer } from '../test/helpers/replicas.ts';
import { validAccount } from '../test/helpers/app.ts';
import { FIXTURES } from '../test/helpers/uploads.ts';

const { values } = parseArgs({ options: { keys: { type: 'string', default: '4000' } } });
const KEYS = Number(values.keys);
const IN_FLIGHT = 32;

type Call = ReturnType<typeof api>;
const defects: string[] = [];

function envelopeOk(res: HttpAnswer): boolean {
  const e = (res.body as { error?: Record<string, unknown> } | null)?.error;
  return (
    !!e &&
    typeof e.code === 'string' &&
    typeof e.message === 'string' &&
    typeof e.hint === 'string' &&
    e.requestId === res.headers.get('x-request-id')
  );
}

async function probeNul(call: Call): Promise<void> {
  const cases: [string, string, unknown?][] = [
    ['GET', '/v2/posts/nul%00byte'],
    ['GET', '/v2/accounts/nul%00byte'],
    ['GET', '/v2/uploads/nul%00byte'],
    ['GET', '/v2/webhooks/nul%00byte'],
    ['GET', '/v2/posts?accountId=nul%00byte'],
    ['GET', '/v2/posts?contentGroupId=tag:a%00b'],
    ['POST', '/v2/content-tags', { name: 'a\u0000b' }],
    ['PATCH', '/v2/content-tags/tag_x', { name: 'a\u0000b' }],
    ['POST', '/v2/accounts', validAccount({ displayName: 'a\u0000b' })],
    ['POST', '/v2/posts', { media: ['upl_x'], accountIds: ['acc_x'], caption: 'a\u0000b' }],
    ['POST', '/v2/webhooks', { url: 'https://example.com/\u0000', events: ['upload.ready'] }],
  ];
  const byStatus: Record<number, number> = {};
  for (const [method, path, body] of cases) {
    const res = await call(method as 'GET', path, body);
    byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
    if (res.status >= 500) defects.push(`NUL: ${method} ${path} answered ${res.status}`);
    if (!envelopeOk(res)) defects.push(`NUL: ${method} ${path} answered outside the envelope`);
  }
  console.log(`NUL characters: ${cases.length} requests, by status ${JSON.stringify(byStatus)}`);
}

async function probePercent(call: Call): Promise<void> {
  const cases: [string, string][] = [
    ['GET', '/v2/posts/%ZZ'],
    ['POST', '/v2/accounts/%E0%A4%A/pause'],
    ['GET', '/v2/webhooks/%ZZ'],
    ['POST', '/worker/v1/tasks/%ZZ/result'],
  ];
  let outside = 0;
  for (const [method, path] of cases) {
    const res = await call(method as 'GET', path);
    if (res.status !== 400 || !envelopeOk(res)) {
      outside++;
      defects.push(
        `percent-encoding: ${method} ${path} answered ${res.status} outside the envelope`,
      );
    }
  }
  console.log(
    `malformed percent-encoding: ${cases.length} requests, ${outside} outside the envelope`,
  );
}

interface Form {
  status: number;
  body: string;
  cookie: string;
}

function send(
  base: string,
  path: string,
  from: string,
  cookie = '',
  form?: Record<string, string>,
) {
  const payload = form ? new URLSearchParams(form).toString() : undefined;
  const url = new URL(path, base);
  return new Promise<Form>((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: payload === undefined ? 'GET' : 'POST',
        localAddress: from,
        agent: false,
        timeout: 30_000,
        headers: {
          cookie,
          ...(payload !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => (body += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body,
            cookie: (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; '),
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(payload);
  });
}

async function probeSignIn(bases: string[], users: { email: string; password: string }[]) {
  const [victim, ...others] = users;
  assert.ok(victim);
  const form = await send(bases[0] as string, '/dashboard/sign-in', '127.0.0.1');
  const csrf = /name="_csrf" value="([^"]*)"/.exec(form.body)?.[1] ?? '';
  const attempt = (i: number, from: string, email: string, password: string) =>
    send(bases[i % bases.length] as string, '/dashboard/sign-in', from, form.cookie, {
      _csrf: csrf,
      next: '',
      email,
      password,
    });
  const count = (answers: Form[]) => {
    const c: Record<number, number> = {};
    for (const a of answers) c[a.status] = (c[a.status] ?? 0) + 1;
    return c;
  };
  // 31 wrong guesses and the right password, at once, each from its own address.
  const account = await Promise.all(
    Array.from({ length: 32 }, (_, i) =>
      attempt(i, `127.0.1.${i + 1}`, victim.email, i === 31 ? victim.password : `wrong-${i}`),
    ),
  );
  const a = count(account);
  const checked = (a[401] ?? 0) + (a[303] ?? 0);
  console.log(
    `sign-in, one account, 32 at once from 32 addresses (limit 5): ${checked} checked, ` +
      `${a[429] ?? 0} refused 429, right password ${account[31]?.status === 303 ? 'got in' : 'refused'}`,
  );
  if (checked > 5) defects.push(`sign-in: ${checked} attempts checked for one account (limit 5)`);
  const address = await Promise.all(
    others.slice(0, 32).map((u, i) => attempt(i, '127.0.2.1', u.email, `wrong-${i}`)),
  );
  const b = count(address);
  console.log(
    `sign-in, one address, 32 at once (limit 20): ${b[401] ?? 0} checked, ${b[429] ?? 0} refused 429`,
  );
  if ((b[401] ?? 0) > 20) defects.push(`sign-in: ${b[401]} attempts checked from one address`);
}

async function readyImage(call: Call, base: string): Promise<string> {
  const bytes = await readFile(`${FIXTURES}/image.png`);
  const created = await call('POST', '/v2/uploads', {
    kind: 'image',
    filename: 'image.png',
    contentType: 'image/png',
    sizeBytes: bytes.length,
  });
  // Signed over its path: sent to the process itself, whatever PUBLIC_URL names.
  const signed = new URL(created.body.uploadUrl as string);
  const put = await fetch(`${base}${signed.pathname}${signed.search}`, {
    method: 'PUT',
    headers: { 'content-type': 'image/png' },
    body: bytes,
  });
  assert.equal(put.status, 200, await put.text());
  const done = await call('POST', `/v2/uploads/${created.body.uploadId}/complete`);
  assert.equal(done.status, 200, JSON.stringify(done.body));
  return created.body.uploadId as string;
}

async function probeIdempotency(calls: Call[], base: string): Promise<void> {
  const [first] = calls;
  assert.ok(first);
  const accounts = await Promise.all(
    [0, 1].map(async () => (await first('POST', '/v2/accounts', validAccount())).body.accountId),
  );
  const media = [await readyImage(first, base)];
  let next = 0;
  let requests = 0;
  let errors5xx = 0;
  let wrong = 0;
  const run = async (lane: number) => {
    for (;;) {
      const i = next++;
      if (i >= KEYS) return;
      const key = `probe-${lane}-${i}`;
      const body = { media, accountIds: accounts, caption: key };
      const answers = await Promise.all(
        calls.map((c) => c('POST', '/v2/posts', body, { 'idempotency-key': key })),
      );
      requests += answers.length;
      errors5xx += answers.filter((a) => a.status >= 500).length;
      const statuses = answers.map((a) => a.status).sort();
      if (statuses.join() !== '200,201') wrong++;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, (_, lane) => run(lane)));
  console.log(
    `Idempotency-Key race, 2 processes: ${requests} requests for ${KEYS} keys in ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s, ${errors5xx} answered 5xx, ` +
      `${wrong} keys without exactly one 201 and one 200`,
  );
  if (errors5xx > 0 || wrong > 0)
    defects.push(`idempotency: ${errors5xx} 5xx, ${wrong} keys wrong`);
}

const db = await createPgDatabase();
const env = { DATABASE_URL: db.url, LOG_LEVEL: 'error', PUBLIC_URL: 'http://127.0.0.1:1' };
const opened = await openContext(loadConfig({ ...process.env, ...env, DATA_DIR: '/tmp/probe' }), {
  clock: systemClock,
});
let running: Awaited<ReturnType<typeof startReplicas>> | null = null;
try {
  const company = await createCompany(opened.ctx.db, systemClock, DEFAULT_PLANS, {
    name: 'Probe Co',
    plan: 'scale',
  });
  const key = await createKey(opened.ctx.db, systemClock, {
    companyId: company.companyId,
    scopes: [...SCOPES],
  });
  const users = [];
  for (let i = 0; i < 33; i++) {
    users.push(
      await createUser(opened.ctx.db, systemClock, {
        companyId: company.companyId,
        email: `probe-${i}@example.com`,
        role: 'viewer',
      }).then(({ password }) => ({ email: `probe-${i}@example.com`, password })),
    );
  }
  await opened.close();
  running = await startReplicas(2, env, (i) => ({ DATA_DIR: `/tmp/probe-${i}` }));
  const bases = running.replicas.map((r) => r.url);
  const calls = bases.map((b) => api(b, key.secret));
  await probeNul(calls[0] as Call);
  await probePercent(calls[0] as Call);
  await probeSignIn(bases, users);
  await probeIdempotency(calls, bases[0] as string);
} finally {
  await running?.stop();
  await db.drop();
}
if (defects.length > 0) {
  console.log(`\n${defects.length} defects:\n${defects.slice(0, 20).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log('\nno defects found');
}
