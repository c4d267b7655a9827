// What the workers' app tests share: a company whose post was released to a worker's
// account, multipart forms sent with a browser's cookies, and the app's sign-in link.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { hidden, workerSignIn, type Browser } from '../../helpers/dashboard.ts';
import { makeActiveAccounts, readyUpload } from '../../helpers/posts.ts';
import { releaseDue } from '../../../src/dispatch/dispatcher.ts';
import { assignAccounts, createWorker } from '../../../src/modules/workers/index.ts';

export const WBASE = '/dashboard/worker';
export const TASKS = `${WBASE}/tasks`;

export const fixture = (name: string) =>
  readFile(new URL(`../../fixtures/media/${name}`, import.meta.url));

/**
 * A company with an active account operated by a worker ("Ana", `timezone`), and a post of
 * `media` released to it at 11:00 UTC of `day`: one task, claimed by nobody yet.
 */
export async function releasedTask(
  t: TestApp,
  day: string,
  options: { media?: string; platform?: string; timezone?: string; carousel?: boolean } = {},
) {
  t.clock.set(`${day}T10:00:00.000Z`);
  const co = await seedCompany(t);
  const call = client(t, co.key);
  const [account] = (await makeActiveAccounts(t, call, 1, options.platform)) as [string];
  const upload = await readyUpload(t, call, options.media ?? 'image.png');
  const worker = await createWorker(t.ctx.db, t.ctx.clock, {
    name: 'Ana',
    timezone: options.timezone ?? 'UTC',
  });
  await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [account]);
  const slide = { image: upload, textElements: [{ content: 'Hi', style: { positionY: 30 } }] };
  const post = await call('POST', '/v2/posts', {
    media: [upload],
    accountIds: [account],
    skipApproval: true,
    caption: 'Sunset over the bay',
    hashtags: ['sea', '#sun'],
    ...(options.carousel ? { slides: [slide, slide] } : {}),
  });
  assert.equal(post.status, 201, JSON.stringify(post.body));
  // A carousel's slides are rendered off the request path before it can be released.
  await t.media.idle();
  t.clock.set(`${day}T11:00:00.000Z`);
  assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 1);
  const work = client(t, worker.token);
  const tasks = await work('GET', '/worker/v1/tasks');
  const taskId = tasks.body.data[0].taskId as string;
  const username = (await call('GET', `/v2/accounts/${account}`)).body.username as string;
  return { co, call, work, worker, account, username, postId: post.body.postId as string, taskId };
}

/** Signs `b` in with the worker's token; answers with the task page's CSRF token. */
export async function signedInAt(b: Browser, token: string, page = TASKS): Promise<string> {
  assert.equal((await workerSignIn(b, token)).status, 303);
  const res = await b.get(page);
  assert.equal(res.status, 200, res.body);
  return hidden(res.body, '_csrf');
}

export interface Sent {
  status: number;
  body: string;
  location?: string;
}

/** A file field of a multipart form. */
export interface FormFile {
  name: string;
  filename: string;
  type: string;
  bytes: Buffer;
}

/**
 * Sends `fields` (and `file`) as multipart/form-data with the browser's cookies, encoded as
 * browsers encode forms (a file field left empty is a part with `filename=""`).
 */
export async function postMultipart(
  t: TestApp,
  b: Browser,
  url: string,
  fields: Record<string, string>,
  file?: FormFile,
  ip = '203.0.113.50',
): Promise<Sent> {
  const boundary = '----SlotlineTestBoundary7MA4YWxkTrZu0gW';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return sendRaw(t, b, url, {
    'content-type': `multipart/form-data; boundary=${boundary}`,
    payload: Buffer.concat(parts),
    ip,
  });
}

/** One POST of raw bytes with the browser's cookies; its Set-Cookie lines update the jar. */
export async function sendRaw(
  t: TestApp,
  b: Browser,
  url: string,
  req: { 'content-type': string; payload: Buffer | string; ip?: string },
): Promise<Sent> {
  const res = await t.app.inject({
    method: 'POST',
    url,
    remoteAddress: req.ip ?? '203.0.113.50',
    headers: {
      cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'content-type': req['content-type'],
    },
    payload: req.payload,
  });
  const set = res.headers['set-cookie'];
  for (const c of ([] as string[]).concat(set ?? [])) {
    const [pair = ''] = c.split(';');
    const eq = pair.indexOf('=');
    const value = pair.slice(eq + 1);
    if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(c)) {
      b.cookies.delete(pair.slice(0, eq));
    } else b.cookies.set(pair.slice(0, eq), value);
  }
  const location = res.headers.location;
  return {
    status: res.statusCode,
    body: res.body,
    ...(typeof location === 'string' ? { location } : {}),
  };
}

/** Text as the page escapes it, read back. */
export function unescape(html: string): string {
  return html
    .replaceAll('&#39;', "'")
    .replaceAll('&quot;', '"')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** The text of the field error shown under `id`, or null. */
export function fieldError(html: string, id: string): string | null {
  const m = new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(html);
  return m ? unescape(m[1] as string) : null;
}
