// The first sections of the probe: NUL characters and malformed percent-encoding in every
// kind of value, sign-in bursts from one and from many addresses, and Idempotency-Key races
// across both processes.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { validAccount } from '../../test/helpers/app.ts';
import { FIXTURES } from '../../test/helpers/uploads.ts';
import type { Call, ProbeRun, Section } from './section.ts';

/** Idempotency keys the race section sends (`--keys N`). */
export const probeOptions = { keys: 4000 };
const IN_FLIGHT = 32;

async function probeNul(probe: ProbeRun): Promise<void> {
  const call = probe.calls[0] as Call;
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
    if (res.status >= 500) probe.defect(`NUL: ${method} ${path} answered ${res.status}`);
    if (!probe.envelopeOk(res))
      probe.defect(`NUL: ${method} ${path} answered outside the envelope`);
  }
  console.log(`NUL characters: ${cases.length} requests, by status ${JSON.stringify(byStatus)}`);
}

async function probePercent(probe: ProbeRun): Promise<void> {
  const call = probe.calls[0] as Call;
  const cases: [string, string][] = [
    ['GET', '/v2/posts/%ZZ'],
    ['POST', '/v2/accounts/%E0%A4%A/pause'],
    ['GET', '/v2/webhooks/%ZZ'],
    ['POST', '/worker/v1/tasks/%ZZ/result'],
  ];
  let outside = 0;
  for (const [method, path] of cases) {
    const res = await call(method as 'GET', path);
    if (res.status !== 400 || !probe.envelopeOk(res)) {
      outside++;
      probe.defect(
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

async function probeSignIn(probe: ProbeRun): Promise<void> {
  const { bases, users } = probe;
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
  if (checked > 5) probe.defect(`sign-in: ${checked} attempts checked for one account (limit 5)`);
  const address = await Promise.all(
    others.slice(0, 32).map((u, i) => attempt(i, '127.0.2.1', u.email, `wrong-${i}`)),
  );
  const b = count(address);
  console.log(
    `sign-in, one address, 32 at once (limit 20): ${b[401] ?? 0} checked, ${b[429] ?? 0} refused 429`,
  );
  if ((b[401] ?? 0) > 20) probe.defect(`sign-in: ${b[401]} attempts checked from one address`);
}

export async function readyImage(call: Call, base: string): Promise<string> {
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

async function probeIdempotency(probe: ProbeRun): Promise<void> {
  const { calls } = probe;
  const base = probe.bases[0] as string;
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
      if (i >= probeOptions.keys) return;
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
    `Idempotency-Key race, 2 processes: ${requests} requests for ${probeOptions.keys} keys in ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s, ${errors5xx} answered 5xx, ` +
      `${wrong} keys without exactly one 201 and one 200`,
  );
  if (errors5xx > 0 || wrong > 0)
    probe.defect(`idempotency: ${errors5xx} 5xx, ${wrong} keys wrong`);
}

export const basicSections: Section[] = [
  { name: 'NUL characters', run: probeNul },
  { name: 'percent-encoding', run: probePercent },
  { name: 'sign-in bursts', run: probeSignIn },
  { name: 'Idempotency-Key races', run: probeIdempotency },
];
