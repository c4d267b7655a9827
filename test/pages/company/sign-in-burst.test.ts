// The sign-in limits under a burst: many attempts sent at once over real sockets, each
// from its own loopback address or all from one, never get more than the limit checked
// in a window, on both databases. The attempt is reserved before the secret is checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { seedCompany } from '../../helpers/app.ts';
import { hidden, userIn } from '../../helpers/dashboard.ts';
import { createWorker } from '../../../src/modules/workers/index.ts';
import {
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ADDRESS,
} from '../../../src/modules/sign-in/index.ts';

interface Answer {
  status: number;
  body: string;
  cookie: string;
  retryAfter: string | undefined;
}

function send(
  port: number,
  path: string,
  options: { from?: string; cookie?: string; form?: Record<string, string> } = {},
): Promise<Answer> {
  const payload = options.form ? new URLSearchParams(options.form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: payload === undefined ? 'GET' : 'POST',
        localAddress: options.from ?? '127.0.0.1',
        // A connection per request, so each comes from the address it names.
        agent: false,
        timeout: 30_000,
        headers: {
          ...(options.cookie ? { cookie: options.cookie } : {}),
          ...(payload !== undefined
            ? {
                'content-type': 'application/x-www-form-urlencoded',
                'content-length': Buffer.byteLength(payload),
              }
            : {}),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          const set = res.headers['set-cookie'] ?? [];
          resolve({
            status: res.statusCode ?? 0,
            body,
            cookie: set.map((c) => c.split(';')[0]).join('; '),
            retryAfter: res.headers['retry-after'],
          });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${path} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** A form's double-submit token and cookie, fetched once and sent with every attempt. */
async function formToken(port: number, path: string) {
  const form = await send(port, path);
  assert.equal(form.status, 200);
  return { cookie: form.cookie, csrf: hidden(form.body, '_csrf') };
}

function statuses(answers: Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}

/** 127.0.0.<n>: every address of 127.0.0.0/8 is this machine's own. */
const loopback = (n: number) => `127.0.0.${n}`;

describeEachDialect('sign-in limits under a burst', (get) => {
  let port = 0;

  test('listen', async () => {
    await get().app.listen({ host: '127.0.0.1', port: 0 });
    port = (get().app.server.address() as AddressInfo).port;
  });

  test('30 wrong passwords at once from 30 addresses: only the account limit is checked', async () => {
    const t = get();
    const co = await seedCompany(t);
    const u = await userIn(t, co.companyId, 'viewer');
    const { cookie, csrf } = await formToken(port, '/dashboard/sign-in');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        send(port, '/dashboard/sign-in', {
          from: loopback(10 + i),
          cookie,
          form: { _csrf: csrf, email: u.email, password: `wrong-${i}`, next: '' },
        }),
      ),
    );
    assert.deepEqual(statuses(answers), { 401: MAX_FAILURES_PER_ACCOUNT, 429: 30 - 5 });
    for (const a of answers.filter((x) => x.status === 429)) {
      assert.ok(Number(a.retryAfter) > 0 && Number(a.retryAfter) <= 15 * 60, a.retryAfter);
    }
    // The right password is refused as well until the window ends.
    const right = await send(port, '/dashboard/sign-in', {
      from: loopback(99),
      cookie,
      form: { _csrf: csrf, email: u.email, password: u.password, next: '' },
    });
    assert.equal(right.status, 429);
  });

  test('the right password among 31 wrong ones: at most the limit is checked', async () => {
    const t = get();
    const co = await seedCompany(t);
    const u = await userIn(t, co.companyId, 'viewer');
    const { cookie, csrf } = await formToken(port, '/dashboard/sign-in');
    const answers = await Promise.all(
      Array.from({ length: 32 }, (_, i) =>
        send(port, '/dashboard/sign-in', {
          from: loopback(50 + i),
          cookie,
          form: {
            _csrf: csrf,
            email: u.email,
            password: i === 16 ? u.password : `no-${i}`,
            next: '',
          },
        }),
      ),
    );
    const counts = statuses(answers);
    const checked = (counts[401] ?? 0) + (counts[303] ?? 0);
    assert.equal(checked, MAX_FAILURES_PER_ACCOUNT, JSON.stringify(counts));
    assert.equal(counts[429], 32 - MAX_FAILURES_PER_ACCOUNT);
    // The right password succeeds only when it was among the attempts checked.
    assert.equal(counts[303] ?? 0, answers[16]?.status === 303 ? 1 : 0);
  });

  test('32 wrong sign-ins at once from one address: only the address limit is checked', async () => {
    const t = get();
    const co = await seedCompany(t);
    const people = await Promise.all(
      Array.from({ length: 32 }, () => userIn(t, co.companyId, 'viewer')),
    );
    const { cookie, csrf } = await formToken(port, '/dashboard/sign-in');
    const answers = await Promise.all(
      people.map((p, i) =>
        send(port, '/dashboard/sign-in', {
          from: loopback(200),
          cookie,
          form: { _csrf: csrf, email: p.email, password: `wrong-${i}`, next: '' },
        }),
      ),
    );
    assert.deepEqual(statuses(answers), {
      401: MAX_FAILURES_PER_ADDRESS,
      429: 32 - MAX_FAILURES_PER_ADDRESS,
    });
    // Refused attempts spent no account's budget: another address signs in at once.
    const first = people[0];
    assert.ok(first);
    const ok = await send(port, '/dashboard/sign-in', {
      from: loopback(201),
      cookie,
      form: { _csrf: csrf, email: first.email, password: first.password, next: '' },
    });
    assert.equal(ok.status, 303);
  });

  test('successful sign-ins give their reservation back', async () => {
    const t = get();
    const co = await seedCompany(t);
    const u = await userIn(t, co.companyId, 'viewer');
    const { cookie, csrf } = await formToken(port, '/dashboard/sign-in');
    const answers = await Promise.all(
      Array.from({ length: MAX_FAILURES_PER_ACCOUNT + 3 }, () =>
        send(port, '/dashboard/sign-in', {
          from: loopback(210),
          cookie,
          form: { _csrf: csrf, email: u.email, password: u.password, next: '' },
        }),
      ),
    );
    // Each success gives its place back, so a burst of right passwords is limited only by
    // how many are checked at the same instant, never locked out afterwards.
    assert.ok(answers.some((a) => a.status === 303));
    const later = await send(port, '/dashboard/sign-in', {
      from: loopback(210),
      cookie,
      form: { _csrf: csrf, email: u.email, password: u.password, next: '' },
    });
    assert.equal(later.status, 303);
  });

  test("the workers' page: 32 wrong tokens at once from one address", async () => {
    const t = get();
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Burst', timezone: 'UTC' });
    const { cookie, csrf } = await formToken(port, '/dashboard/worker/sign-in');
    const answers = await Promise.all(
      Array.from({ length: 32 }, (_, i) =>
        send(port, '/dashboard/worker/sign-in', {
          from: loopback(220),
          cookie,
          form: { _csrf: csrf, token: `slw_nothing_${i}` },
        }),
      ),
    );
    assert.deepEqual(statuses(answers), {
      401: MAX_FAILURES_PER_ADDRESS,
      429: 32 - MAX_FAILURES_PER_ADDRESS,
    });
    const right = await send(port, '/dashboard/worker/sign-in', {
      from: loopback(220),
      cookie,
      form: { _csrf: csrf, token: worker.token },
    });
    assert.equal(right.status, 429);
  });
});
