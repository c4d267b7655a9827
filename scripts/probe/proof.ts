// The probe's "proof" section: the screenshots a worker sends as proof of a post, through the
// worker API (PUT /worker/v1/tasks/{taskId}/proof) and the workers' app (its multipart
// "Posted" form), against the first service process. A company of its own gets five tasks
// released to one worker through the services; then the section sends
// - refused `posted` reports with a screenshot (a URL of another account, of the other
//   platform) and counts the proofs left behind: on the task, in the post's deliveries and
//   as stored rows of the company;
// - truncated PNG and JPEG screenshots, and counts those accepted;
// - a screenshot past the proof limit, and counts the answers naming another limit;
// - accepted reports with a screenshot, and counts those whose proof is not shown.
import { request } from 'node:http';
import { buildApp } from '../../src/app.ts';
import { openContext } from '../../src/bootstrap.ts';
import { loadConfig } from '../../src/config.ts';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import { FakeClock } from '../../src/lib/clock.ts';
import { PROOF_MAX_BYTES } from '../../src/modules/uploads/index.ts';
import { assignAccounts, createWorker } from '../../src/modules/workers/index.ts';
import { client, seedCompany, type TestApp } from '../../test/helpers/app.ts';
import { makeActiveAccounts, readyUpload } from '../../test/helpers/posts.ts';
import { fixture } from '../../test/helpers/uploads.ts';
import type { ProbeRun, Section } from './section.ts';

/** A JSON answer read loosely: every member is optional, every value a string or more JSON. */
interface Json {
  [key: string]: string | undefined | Json | Json[];
}

interface Answer {
  status: number;
  body: string;
  json: Json | null;
  location: string | null;
  cookies: string[];
}

async function send(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: Buffer | string },
): Promise<Answer> {
  const res = await fetch(url, {
    method: init.method,
    redirect: 'manual',
    signal: AbortSignal.timeout(60_000),
    ...(init.headers ? { headers: init.headers } : {}),
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  const body = await res.text();
  let json: Json | null = null;
  if ((res.headers.get('content-type') ?? '').includes('json')) json = JSON.parse(body) as Json;
  return {
    status: res.status,
    body,
    json,
    location: res.headers.get('location'),
    cookies: res.headers.getSetCookie().map((c) => c.split(';')[0] as string),
  };
}

/**
 * A PUT whose answer may come before its body is sent: the server refuses by Content-Length
 * and closes the connection, so a client still writing the rest can fail (EPIPE) before it
 * reads the answer. The answer counts; a failed write after it does not.
 */
function putEarlyAnswered(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<Answer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'PUT',
        agent: false,
        timeout: 60_000,
        headers: { ...headers, 'content-length': String(body.length) },
      },
      (res) => {
        answered = true;
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => {
          const json = (res.headers['content-type'] ?? '').includes('json')
            ? (JSON.parse(text) as Json)
            : null;
          resolve({ status: res.statusCode ?? 0, body: text, json, location: null, cookies: [] });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    // The first bytes, then a pause for an answer by Content-Length alone: the rest only
    // if none came, so an early refusal is read before any write can fail.
    req.write(body.subarray(0, 64 * 1024));
    setTimeout(() => {
      if (answered) req.destroy();
      else req.end(body.subarray(64 * 1024));
    }, 1000);
  });
}

/** The workers' app in a browser: its cookies, its form token, multipart forms. */
class Phone {
  private jar = new Map<string, string>();
  constructor(private base: string) {}

  private keep(a: Answer): Answer {
    for (const c of a.cookies) {
      const eq = c.indexOf('=');
      if (c.slice(eq + 1) === '') this.jar.delete(c.slice(0, eq));
      else this.jar.set(c.slice(0, eq), c.slice(eq + 1));
    }
    return a;
  }

  private cookie(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async get(path: string): Promise<Answer> {
    return this.keep(
      await send(this.base + path, { method: 'GET', headers: { cookie: this.cookie() } }),
    );
  }

  async signIn(token: string): Promise<boolean> {
    const form = await this.get('/dashboard/worker/sign-in');
    const body = new URLSearchParams({ _csrf: csrfOf(form.body), token }).toString();
    const res = this.keep(
      await send(`${this.base}/dashboard/worker/sign-in`, {
        method: 'POST',
        headers: { cookie: this.cookie(), 'content-type': 'application/x-www-form-urlencoded' },
        body,
      }),
    );
    return res.status === 303 && res.location === '/dashboard/worker/tasks';
  }

  async multipart(
    path: string,
    fields: Record<string, string>,
    file?: { type: string; bytes: Buffer },
  ): Promise<Answer> {
    const boundary = '----ProbeProofBoundary2y8Q';
    const parts: Buffer[] = [];
    for (const [k, v] of Object.entries(fields)) {
      parts.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
      );
    }
    if (file) {
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="screenshot"; filename="shot"\r\nContent-Type: ${file.type}\r\n\r\n`,
        ),
        file.bytes,
        Buffer.from('\r\n'),
      );
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    return this.keep(
      await send(this.base + path, {
        method: 'POST',
        headers: {
          cookie: this.cookie(),
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        body: Buffer.concat(parts),
      }),
    );
  }
}

/** The error envelope with every member, whatever the status. */
function enveloped(a: Answer): boolean {
  const e = a.json?.error as Json | undefined;
  return !!e && ['code', 'message', 'hint', 'requestId'].every((k) => typeof e[k] === 'string');
}

function csrfOf(html: string): string {
  return /name="_csrf" value="([^"]*)"/.exec(html)?.[1] ?? '';
}

/** The field error the app shows next to the screenshot field, if any. */
function screenshotError(html: string): string | null {
  const m = /<p class="field-error" id="(?:screenshot|proof)-error">([^<]*)<\/p>/.exec(html);
  return m?.[1] ?? null;
}

/**
 * An IANA zone where it is about noon now, so windows a few minutes back fall in the
 * schedule's 08:00-17:00 and on the same local day.
 */
function noonZone(now: Date): string {
  const n = now.getUTCHours() - 12;
  if (n === 0) return 'UTC';
  return `Etc/GMT${n > 0 ? '+' : '-'}${Math.abs(n)}`;
}

function localHHmm(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
}

interface World {
  base: string;
  key: string;
  workerToken: string;
  postId: string;
  /** One released task per account, by username. */
  tasks: { taskId: string; username: string }[];
  countProofRows(): Promise<number>;
  close(): Promise<void>;
}

/**
 * A company of its own whose post is released now to five accounts operated by one worker.
 * The post is made through an app in this process whose clock stands ten minutes back, so
 * the window five minutes ago finds it waiting; the release itself happens at the real now,
 * so the reports the processes check against their clock are neither early nor late.
 */
async function world(probe: ProbeRun): Promise<World> {
  const now = new Date();
  const zone = noonZone(now);
  const clock = new FakeClock(new Date(now.getTime() - 10 * 60_000).toISOString());
  const config = loadConfig({ ...process.env, ...probe.env, DATA_DIR: '/tmp/probe-0' });
  const opened = await openContext(config, { clock });
  const app = await buildApp(opened.ctx, {});
  await app.ready();
  const t = { app, ctx: opened.ctx, clock, config } as unknown as TestApp;
  const co = await seedCompany(t, { name: 'Proof probe' });
  const call = client(t, co.key);
  const accounts = await makeActiveAccounts(t, call, 5);
  const worker = await createWorker(opened.ctx.db, clock, { name: 'Proof probe', timezone: zone });
  await assignAccounts(opened.ctx.db, clock, worker.workerId, accounts);
  const window = localHHmm(new Date(now.getTime() - 5 * 60_000), zone);
  for (const a of accounts) {
    const res = await call('PATCH', `/v2/accounts/${a}/schedule`, {
      schedule: { windows: [window] },
    });
    if (res.status !== 200) throw new Error(`schedule: ${JSON.stringify(res.body)}`);
  }
  const upload = await readyUpload(t, call, 'image.png');
  const post = await call('POST', '/v2/posts', {
    media: [upload],
    accountIds: accounts,
    skipApproval: true,
    caption: 'Proof probe',
  });
  if (post.status !== 201) throw new Error(`post: ${JSON.stringify(post.body)}`);
  clock.set(new Date().toISOString());
  await releaseDue(opened.ctx, clock.now());
  const base = probe.bases[0] as string;
  const listed = await send(`${base}/worker/v1/tasks`, {
    method: 'GET',
    headers: { authorization: `Bearer ${worker.token}` },
  });
  const tasks = ((listed.json?.data ?? []) as Json[]).map((x) => ({
    taskId: x.taskId as string,
    username: x.username as string,
  }));
  if (tasks.length !== accounts.length) {
    throw new Error(`released ${tasks.length} of ${accounts.length} tasks: ${listed.body}`);
  }
  return {
    base,
    key: co.key,
    workerToken: worker.token,
    postId: post.body.postId as string,
    tasks,
    countProofRows: async () => {
      const rows = await opened.ctx.db
        .selectFrom('uploads')
        .select('id')
        .where('company_id', '=', co.companyId)
        .where('source', '=', 'proof')
        .execute();
      return rows.length;
    },
    close: async () => {
      await app.close();
      await opened.close();
    },
  };
}

async function probeProof(probe: ProbeRun): Promise<void> {
  const w = await world(probe);
  try {
    const png = await fixture('image.png');
    const jpeg = await fixture('image.jpg');
    const worker = { authorization: `Bearer ${w.workerToken}` };
    const company = { authorization: `Bearer ${w.key}` };
    const task = (taskId: string) =>
      send(`${w.base}/worker/v1/tasks/${taskId}`, { method: 'GET', headers: worker });
    const putProof = (taskId: string, type: string, bytes: Buffer) =>
      send(`${w.base}/worker/v1/tasks/${taskId}/proof`, {
        method: 'PUT',
        headers: { ...worker, 'content-type': type },
        body: bytes,
      });
    const report = (taskId: string, body: object) =>
      send(`${w.base}/worker/v1/tasks/${taskId}/result`, {
        method: 'POST',
        headers: { ...worker, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const claim = async (taskId: string, username: string) => {
      const res = await send(`${w.base}/worker/v1/tasks/claim`, {
        method: 'POST',
        headers: { ...worker, 'content-type': 'application/json' },
        body: JSON.stringify({ limit: 50 }),
      });
      if (res.status !== 200) probe.defect(`proof: claim for @${username} answered ${res.status}`);
      return taskId;
    };
    const deliveries = async () => {
      const res = await send(`${w.base}/v2/posts/${w.postId}/deliveries`, {
        method: 'GET',
        headers: company,
      });
      return new Map<string, Json>(
        ((res.json?.deliveries ?? []) as Json[]).map((d) => [d.username as string, d]),
      );
    };
    const url = (username: string) => `https://platform-a.example/@${username}/video/${Date.now()}`;
    const [t1, t2, t3, t4] = w.tasks as [
      (typeof w.tasks)[0],
      (typeof w.tasks)[0],
      (typeof w.tasks)[0],
      (typeof w.tasks)[0],
    ];
    const phone = new Phone(w.base);
    if (!(await phone.signIn(w.workerToken))) probe.defect('proof: the worker could not sign in');
    const form = async (taskId: string) =>
      csrfOf((await phone.get(`/dashboard/worker/tasks/${taskId}`)).body);

    // 1. Refused `posted` reports with a screenshot.
    const appRefused = await phone.multipart(
      `/dashboard/worker/tasks/${t1.taskId}/report`,
      {
        _csrf: await form(t1.taskId),
        outcome: 'posted',
        postUrl: 'https://platform-a.example/@somebody.else/video/1',
      },
      { type: 'image/png', bytes: png },
    );
    if (appRefused.status !== 400) {
      probe.defect(
        `proof: the app's report with another account's URL answered ${appRefused.status}`,
      );
    }
    await claim(t2.taskId, t2.username);
    const early = await putProof(t2.taskId, 'image/png', png);
    if (early.status !== 200)
      probe.defect(`proof: a screenshot before the report answered ${early.status}`);
    const apiRefused = await report(t2.taskId, {
      outcome: 'posted',
      postUrl: 'https://platform-b.example/p/123/',
    });
    if (apiRefused.status !== 400) {
      probe.defect(`proof: the API's report with a platformB URL answered ${apiRefused.status}`);
    }
    let visible = 0;
    const shown = await deliveries();
    for (const t of [t1, t2]) {
      if (shown.get(t.username)?.proofScreenshotUrl) {
        visible++;
        probe.defect(
          `proof: the company sees a screenshot of @${t.username}, never reported posted`,
        );
      }
    }
    if ((await task(t1.taskId)).json?.proofScreenshotUrl) {
      visible++;
      probe.defect("proof: the app's refused report left its screenshot on the task");
    }
    const rows = await w.countProofRows();
    // The API's screenshot stays with its open task (rows 1); the app's refused one must not.
    if (rows > 1) {
      visible += rows - 1;
      probe.defect(`proof: ${rows - 1} screenshot rows stored for refused reports`);
    }
    console.log(
      `proof, refused posted reports with a screenshot (app form, API): 2 refused, ${visible} proofs left visible or stored`,
    );

    // 2. Truncated screenshots.
    await claim(t3.taskId, t3.username);
    const cuts: [string, string, Buffer][] = [
      ['PNG, 200 bytes', 'image/png', png.subarray(0, 200)],
      ['PNG, all but 64 bytes', 'image/png', png.subarray(0, png.length - 64)],
      ['JPEG, 600 bytes', 'image/jpeg', jpeg.subarray(0, 600)],
      ['JPEG, all but 2 bytes', 'image/jpeg', jpeg.subarray(0, jpeg.length - 2)],
    ];
    let accepted = 0;
    for (const [name, type, bytes] of cuts) {
      const res = await putProof(t3.taskId, type, bytes);
      if (res.status === 200) {
        accepted++;
        probe.defect(`proof: a truncated ${name} was accepted by the API`);
      } else if (res.status >= 500 || !enveloped(res)) {
        probe.defect(`proof: a truncated ${name} answered ${res.status} outside the envelope`);
      }
    }
    const appCut = await phone.multipart(
      `/dashboard/worker/tasks/${t3.taskId}/report`,
      { _csrf: await form(t3.taskId), outcome: 'posted', postUrl: url(t3.username) },
      { type: 'image/png', bytes: png.subarray(0, 200) },
    );
    if (appCut.status === 303 || (await task(t3.taskId)).json?.state === 'posted') {
      accepted++;
      probe.defect('proof: the app took a report with a truncated PNG');
    }
    console.log(
      `proof, truncated screenshots (${cuts.length} through the API, 1 through the app): ${accepted} accepted`,
    );

    // 3. A screenshot past the proof limit.
    await claim(t4.taskId, t4.username);
    const huge = Buffer.alloc(PROOF_MAX_BYTES + 1);
    png.copy(huge);
    let wrong = 0;
    const over = await putEarlyAnswered(
      `${w.base}/worker/v1/tasks/${t4.taskId}/proof`,
      { ...worker, 'content-type': 'image/png' },
      huge,
    );
    const e = over.json?.error as Json | undefined;
    const mib = `${PROOF_MAX_BYTES / 1024 / 1024} MiB`;
    if (
      over.status !== 413 ||
      e?.code !== 'file_too_large' ||
      !String(e?.message).includes(String(PROOF_MAX_BYTES)) ||
      !String(e?.hint).includes(mib)
    ) {
      wrong++;
      probe.defect(
        `proof: an over-limit screenshot answered ${over.status} ${e?.code}: ${e?.message} (${e?.hint})`,
      );
    }
    const appOver = await phone.multipart(
      `/dashboard/worker/tasks/${t4.taskId}/report`,
      { _csrf: await form(t4.taskId), outcome: 'posted', postUrl: url(t4.username) },
      { type: 'image/png', bytes: huge },
    );
    const appError = screenshotError(appOver.body) ?? '';
    if (appOver.status !== 413 || !appError.includes(mib)) {
      wrong++;
      probe.defect(
        `proof: the app's over-limit screenshot answered ${appOver.status}: ${appError}`,
      );
    }
    console.log(
      `proof, screenshots past the ${mib} limit (API, app): ${wrong} answers naming another limit`,
    );

    // 4. Accepted reports with a screenshot still keep and show it.
    let missing = 0;
    const appOk = await phone.multipart(
      `/dashboard/worker/tasks/${t1.taskId}/report`,
      { _csrf: await form(t1.taskId), outcome: 'posted', postUrl: url(t1.username) },
      { type: 'image/png', bytes: png },
    );
    if (appOk.status !== 303)
      probe.defect(`proof: the app's valid report answered ${appOk.status}`);
    const apiOk = await report(t2.taskId, { outcome: 'posted', postUrl: url(t2.username) });
    if (apiOk.status !== 200)
      probe.defect(`proof: the API's valid report answered ${apiOk.status}`);
    const after = await deliveries();
    for (const t of [t1, t2]) {
      const proof = after.get(t.username)?.proofScreenshotUrl as string | undefined;
      const image = proof
        ? await send(proof.replace(/^https?:\/\/[^/]+/, w.base), { method: 'GET' })
        : null;
      if (!proof || image?.status !== 200) {
        missing++;
        probe.defect(`proof: the accepted report of @${t.username} shows no screenshot`);
      }
    }
    console.log(
      `proof, accepted posted reports with a screenshot (app, API): ${missing} without their proof`,
    );
  } finally {
    await w.close();
  }
}

export const proofSections: Section[] = [{ name: 'proof', run: probeProof }];
