// Request bodies the parsers and walkers choke on: JSON nested thousands of levels deep on
// every JSON route (the API, the worker API, MCP), multipart forms cut short on the
// dashboard's import check and the workers' forms, and byte ranges at the edges of a served
// media file.
import { readFile } from 'node:fs/promises';
import { openContext } from '../../src/bootstrap.ts';
import { loadConfig } from '../../src/config.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createUser } from '../../src/modules/users/users.service.ts';
import { createWorker } from '../../src/modules/workers/workers.service.ts';
import { FIXTURES } from '../../test/helpers/uploads.ts';
import { readyImage } from './basics.ts';
import type { Call, ProbeRun, Section } from './section.ts';

/** A worker token and an editor's sign-in, made through the services on the probe's database. */
async function setUp(probe: ProbeRun) {
  const opened = await openContext(
    loadConfig({ ...process.env, ...probe.env, DATA_DIR: '/tmp/probe-bodies' }),
    { clock: systemClock },
  );
  try {
    const worker = await createWorker(opened.ctx.db, systemClock, {
      name: `Probe bodies ${Date.now()}`,
      timezone: 'UTC',
    });
    const email = `probe-editor-${Date.now()}@example.com`;
    const { password } = await createUser(opened.ctx.db, systemClock, {
      companyId: probe.companyId,
      email,
      role: 'editor',
    });
    return { workerToken: worker.token, email, password };
  } finally {
    await opened.close();
  }
}

let setup: ReturnType<typeof setUp> | undefined;
const once = (probe: ProbeRun) => (setup ??= setUp(probe));

/** A JSON value `depth` arrays deep: two bytes a level, so 500,000 levels fit in 1 MB. */
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

async function probeNestedJson(probe: ProbeRun): Promise<void> {
  const base = probe.bases[0] as string;
  const { workerToken } = await once(probe);
  const routes: [string, string, string, (inner: string) => string][] = [
    [
      'POST',
      '/v2/posts/validate',
      probe.keySecret,
      (v) => `{"media":["upl_x"],"accountIds":["acc_x"],"x":${v}}`,
    ],
    [
      'POST',
      '/v2/posts',
      probe.keySecret,
      (v) => `{"media":["upl_x"],"accountIds":["acc_x"],"x":${v}}`,
    ],
    ['POST', '/v2/content-tags', probe.keySecret, (v) => `{"name":${v}}`],
    ['POST', '/v2/webhooks', probe.keySecret, (v) => `{"url":${v},"events":["upload.ready"]}`],
    [
      'POST',
      '/worker/v1/tasks/tsk_x/result',
      workerToken,
      (v) => `{"outcome":"failed","reason":${v}}`,
    ],
    [
      'POST',
      '/mcp',
      probe.keySecret,
      (v) =>
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"createContentTag","arguments":{"name":${v}}}}`,
    ],
  ];
  for (const depth of [5_000, 100_000, 500_000]) {
    const inner = nested(depth);
    const byStatus: Record<number, number> = {};
    let errors5xx = 0;
    let slowest = 0;
    let total = 0;
    for (const [method, path, token, wrap] of routes) {
      const started = performance.now();
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: wrap(inner),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      const ms = performance.now() - started;
      total += ms;
      slowest = Math.max(slowest, ms);
      byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
      const body = (() => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          return null;
        }
      })();
      const answer = { status: res.status, body, headers: res.headers };
      if (res.status >= 500) {
        errors5xx++;
        probe.defect(`nested JSON: ${depth} levels on ${method} ${path} answered ${res.status}`);
      } else if (res.status !== 400 || !probe.envelopeOk(answer)) {
        probe.defect(
          `nested JSON: ${depth} levels on ${method} ${path} answered ${res.status}, not 400 in the envelope`,
        );
      } else if (!/nest/i.test((body as { error: { message: string } }).error.message)) {
        probe.defect(
          `nested JSON: ${depth} levels on ${method} ${path}: the message names no limit`,
        );
      }
      // Loopback carries 1 MB in a few ms; what is left is the service's own work.
      if (ms > 100) {
        probe.defect(`nested JSON: ${depth} levels on ${method} ${path} took ${ms.toFixed(0)} ms`);
      }
    }
    console.log(
      `nested JSON, ${depth} levels: ${routes.length} routes, by status ${JSON.stringify(byStatus)}, ` +
        `${errors5xx} 5xx, ${(total / routes.length).toFixed(0)} ms a request on average, ` +
        `slowest ${slowest.toFixed(0)} ms`,
    );
  }
  // A body as deep as real ones get is read and answered by the route, not by the limit.
  const call = probe.calls[0] as Call;
  const res = await call('POST', '/v2/content-tags', { name: JSON.parse(nested(20)) });
  const shallowOk =
    res.status === 400 && !/nest/i.test((res.body as { error: { message: string } }).error.message);
  if (!shallowOk) probe.defect(`nested JSON: 20 levels answered ${res.status} by the depth limit`);
  console.log(`nested JSON, 20 levels: answered by the route (${shallowOk ? 'yes' : 'no'})`);
}

/** A browser of one process: cookies kept, redirects not followed. */
function browserOf(base: string) {
  const cookies = new Map<string, string>();
  const send = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}${path}`, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string> | undefined),
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      signal: AbortSignal.timeout(30_000),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      body: await res.text(),
    };
  };
  const form = (path: string, fields: Record<string, string>) =>
    send(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  return { send, form };
}

const csrfOf = (html: string) => /name="_csrf" value="([^"]*)"/.exec(html)?.[1] ?? '';

async function probeTruncatedMultipart(probe: ProbeRun): Promise<void> {
  const base = probe.bases[0] as string;
  const { workerToken, email, password } = await once(probe);
  const company = browserOf(base);
  const signIn = await company.send('/dashboard/sign-in');
  const signedIn = await company.form('/dashboard/sign-in', {
    _csrf: csrfOf(signIn.body),
    next: '',
    email,
    password,
  });
  if (signedIn.status !== 303)
    probe.defect(`truncated multipart: sign-in answered ${signedIn.status}`);
  const importCsrf = csrfOf((await company.send('/dashboard/import')).body);
  const worker = browserOf(base);
  const workerForm = await worker.send('/dashboard/worker/sign-in');
  const workerIn = await worker.form('/dashboard/worker/sign-in', {
    _csrf: csrfOf(workerForm.body),
    token: workerToken,
  });
  if (workerIn.status !== 303) {
    probe.defect(`truncated multipart: worker sign-in answered ${workerIn.status}`);
  }
  const tasks = await worker.send('/dashboard/worker/tasks');
  const workerCsrf = csrfOf(tasks.body);

  const B = 'probeBoundary';
  const field = (name: string, value: string) =>
    `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const fileHead = (name: string, filename: string, type: string) =>
    `--${B}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  const bodies = (csrf: string, file: string, type: string): [string, string, string][] => [
    [
      'cut in the file',
      `multipart/form-data; boundary=${B}`,
      field('_csrf', csrf) + fileHead(file, 'a', type) + 'media,acc',
    ],
    ['cut in a field', `multipart/form-data; boundary=${B}`, field('_csrf', csrf).slice(0, -10)],
    [
      'cut in a part header',
      `multipart/form-data; boundary=${B}`,
      `--${B}\r\nContent-Disposition: form-da`,
    ],
    ['no boundary parameter', 'multipart/form-data', field('_csrf', csrf)],
    ['no boundary in the body', `multipart/form-data; boundary=${B}`, 'not a multipart body'],
  ];
  const targets: [string, ReturnType<typeof browserOf>, string, string, string][] = [
    ['dashboard import check', company, '/dashboard/import/check', importCsrf, 'text/csv'],
    [
      'worker proof form',
      worker,
      '/dashboard/worker/tasks/tsk_probe/proof',
      workerCsrf,
      'image/png',
    ],
    [
      'worker report form',
      worker,
      '/dashboard/worker/tasks/tsk_probe/report',
      workerCsrf,
      'image/png',
    ],
  ];
  for (const [label, b, path, csrf, type] of targets) {
    const byStatus: Record<number, number> = {};
    let errors5xx = 0;
    const cases = bodies(csrf, label.startsWith('dashboard') ? 'file' : 'screenshot', type);
    for (const [what, contentType, payload] of cases) {
      const res = await b.send(path, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: payload,
      });
      byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
      if (res.status >= 500) errors5xx++;
      if (res.status !== 400 || !res.type.startsWith('text/html')) {
        probe.defect(
          `truncated multipart: ${label}, ${what}: ${res.status} ${res.type}, not a 400 page`,
        );
      }
    }
    console.log(
      `truncated multipart, ${label}: ${cases.length} bodies, by status ${JSON.stringify(byStatus)}, ${errors5xx} 5xx`,
    );
  }
}

async function probeByteRanges(probe: ProbeRun): Promise<void> {
  const base = probe.bases[0] as string;
  const call = probe.calls[0] as Call;
  const bytes = await readFile(`${FIXTURES}/image.png`);
  const size = bytes.length;
  const uploadId = await readyImage(call, base);
  const url = new URL((await call('GET', `/v2/uploads/${uploadId}`)).body.url as string);
  // [Range, expected status, first byte, last byte] (RFC 9110 section 14).
  const whole = (status: number): [number, number, number] => [status, 0, size - 1];
  const cases: [string, number, number, number][] = [
    // A suffix longer than the file selects the whole file (14.1.2), a satisfiable range.
    [`bytes=-${size + 100}`, ...whole(206)],
    [`bytes=-${size}`, ...whole(206)],
    ['bytes=0-', ...whole(206)],
    [`bytes=0-${size - 1}`, ...whole(206)],
    [`bytes=0-${size * 10}`, ...whole(206)],
    ['bytes=-1', 206, size - 1, size - 1],
    [`bytes=${size - 1}-`, 206, size - 1, size - 1],
    ['bytes=0-0', 206, 0, 0],
    ['BYTES=0-0', 206, 0, 0],
    ['bytes=0-0, 1-1', 206, 0, 1],
    [`bytes=${size}-`, 416, 0, 0],
    ['bytes=-0', 416, 0, 0],
    [`bytes=${size}-${size + 5},-0`, 416, 0, 0],
    // Ignored: several ranges, a malformed or invalid set, another unit.
    ['bytes=0-1,10-11', ...whole(200)],
    ['bytes=5-1', ...whole(200)],
    ['bytes=abc', ...whole(200)],
    ['bytes=0-1,x', ...whole(200)],
    ['items=0-1', ...whole(200)],
  ];
  const byStatus: Record<number, number> = {};
  let wrong = 0;
  for (const [range, status, first, last] of cases) {
    const res = await fetch(`${base}${url.pathname}${url.search}`, {
      headers: { range },
      signal: AbortSignal.timeout(30_000),
    });
    const got = Buffer.from(await res.arrayBuffer());
    byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
    const problem =
      res.status !== status
        ? `answered ${res.status}, expected ${status}`
        : status === 206 && res.headers.get('content-range') !== `bytes ${first}-${last}/${size}`
          ? `Content-Range ${res.headers.get('content-range')}, expected bytes ${first}-${last}/${size}`
          : status === 416 && res.headers.get('content-range') !== `bytes */${size}`
            ? `Content-Range ${res.headers.get('content-range')} on a 416`
            : status !== 416 && !got.equals(bytes.subarray(first, last + 1))
              ? 'other bytes than asked for'
              : null;
    if (problem) {
      wrong++;
      probe.defect(`byte ranges: ${range} on a ${size}-byte file: ${problem}`);
    }
  }
  // The pages' own files (icons, scripts) are sent whole whatever Range asks.
  const asset = `${base}/dashboard/assets/worker-icon-180.png`;
  const assetSize = (await (await fetch(asset)).arrayBuffer()).byteLength;
  let assetWrong = 0;
  for (const range of [`bytes=-${assetSize + 100}`, `bytes=${assetSize}-`, 'bytes=0-0']) {
    const res = await fetch(asset, { headers: { range }, signal: AbortSignal.timeout(30_000) });
    const got = (await res.arrayBuffer()).byteLength;
    if (res.status !== 200 || got !== assetSize) {
      assetWrong++;
      probe.defect(`byte ranges: ${range} on a page asset answered ${res.status}, ${got} bytes`);
    }
  }
  console.log(`byte ranges on a page asset: 3 ranges, ${assetWrong} not answered whole`);
  console.log(
    `byte ranges on a ${size}-byte file: ${cases.length} ranges, by status ${JSON.stringify(byStatus)}, ${wrong} answered otherwise than RFC 9110 says`,
  );
}

export const bodySections: Section[] = [
  { name: 'nested JSON', run: probeNestedJson },
  { name: 'truncated multipart', run: probeTruncatedMultipart },
  { name: 'byte ranges', run: probeByteRanges },
];
