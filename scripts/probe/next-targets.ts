// The probe's "sign-in next targets" section: every hostile `next` value (control
// characters, line and paragraph separators, other sites, backslashes, encoded line breaks,
// dot segments, overlong) sent through every sign-in and welcome flow of the three web apps
// (the dashboard, the operator console, the workers' app), in the query and in the form.
// It counts 5xx answers, answers whose Location is not a safe same-site path of the app,
// and sessions written by an answer that set no session cookie.
import { request } from 'node:http';
import { Secret, TOTP } from 'otpauth';
import { openContext, type OpenedContext } from '../../src/bootstrap.ts';
import { loadConfig } from '../../src/config.ts';
import { OPERATOR } from '../../src/modules/activity/index.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { ADMIN_CLI, createOperator } from '../../src/modules/operators/index.ts';
import { inviteUser } from '../../src/modules/users/index.ts';
import { createWorker, createWorkerSignInLink } from '../../src/modules/workers/index.ts';
import type { ProbeRun, Section } from './section.ts';

/** Hostile targets, `@` standing for the app's own prefix (`/dashboard`, ...). */
const HOSTILE: [string, string][] = [
  ['CR LF', '@/x\r\nX-Probe: 1'],
  ['LF', '@/x\nX-Probe: 1'],
  ['CR', '@/x\rX-Probe: 1'],
  ['BEL', '@/x\u0007'],
  ['tab', '@/x\ty'],
  ['DEL', '@/x\u007f'],
  ['C1 NEL', '@/x\u0085'],
  ['U+2028', '@/x\u2028y'],
  ['U+2029', '@/x\u2029y'],
  ['non-ASCII', '@/caf\u00e9'],
  ['space', '@/x y'],
  ['protocol-relative', '//evil.example@/'],
  ['slash backslash', '/\\evil.example'],
  ['prefix backslash', '@/\\evil.example'],
  ['prefix double slash', '@//evil.example'],
  ['encoded CR LF', '@/%0d%0aX-Probe:%201'],
  ['encoded dot segments', '@/%2e%2e/%2e%2e/v2/posts'],
  ['dot segments', '@/../../v2/posts'],
  ['javascript:', 'javascript:alert(1)'],
  ['absolute URL', 'https://evil.example@/'],
  ['outside the app', '/v2/posts'],
  ['overlong', `@/${'a'.repeat(8000)}`],
];

interface Answer {
  status: number;
  location: string | null;
  cookies: Map<string, string>;
  body: string;
}

let lane = 0;
/** A loopback address of its own per flow, so no per-address limit is shared. */
function freshAddress(): string {
  lane += 1;
  return `127.0.${10 + Math.floor(lane / 250)}.${(lane % 250) + 1}`;
}

/** One request from `from`, with `cookies`; the path is sent as given (query included). */
function send(
  base: string,
  path: string,
  from: string,
  cookies: Map<string, string>,
  form?: Record<string, string>,
): Promise<Answer> {
  const payload = form ? new URLSearchParams(form).toString() : undefined;
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: payload === undefined ? 'GET' : 'POST',
        localAddress: from,
        agent: false,
        timeout: 30_000,
        headers: {
          cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          ...(payload !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => (body += c));
        res.on('end', () => {
          const set = new Map<string, string>();
          for (const c of res.headers['set-cookie'] ?? []) {
            const pair = c.split(';')[0] ?? '';
            const eq = pair.indexOf('=');
            set.set(pair.slice(0, eq), pair.slice(eq + 1));
          }
          const location = res.headers.location;
          resolve({ status: res.statusCode ?? 0, location: location ?? null, cookies: set, body });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** A browser's jar: keeps what an answer set, forgets what it cleared. */
function keep(jar: Map<string, string>, answer: Answer): void {
  for (const [k, v] of answer.cookies) {
    if (v === '') jar.delete(k);
    else jar.set(k, v);
  }
}

function hidden(html: string, name: string): string {
  return new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
}

/**
 * Whether a Location is a same-site path of the app: one leading slash, printable ASCII
 * without backslashes or spaces, no empty or dot segment in the path, under `prefix`.
 */
function safeLocation(location: string, prefix: string): boolean {
  if (!/^\/[!-~]*$/.test(location) || location.includes('\\')) return false;
  const path = location.split(/[?#]/, 1)[0] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  if (!/^[!-~]*$/.test(decoded) || decoded.includes('\\')) return false;
  const segments = decoded.split('/').slice(1);
  if (segments.some((s, i) => (s === '' && i < segments.length - 1) || s === '.' || s === '..')) {
    return false;
  }
  return path === prefix || path.startsWith(`${prefix}/`);
}

interface Tally {
  requests: number;
  /** Whether the flow signs in, and how many of its answers set the session cookie. */
  signs: boolean;
  signedIn: number;
  fivexx: number;
  unsafe: number;
  sessionsWithoutCookie: number;
}

class Counter {
  readonly groups = new Map<string, Tally>();
  constructor(private readonly probe: ProbeRun) {}

  /** Checks one answer of `flow`; `written`: how many sessions it stored. */
  check(
    flow: string,
    label: string,
    answer: Answer,
    prefix: string,
    sessionCookie: string | null,
    written = 0,
  ): void {
    const t = this.groups.get(flow) ?? {
      requests: 0,
      signs: sessionCookie !== null,
      signedIn: 0,
      fivexx: 0,
      unsafe: 0,
      sessionsWithoutCookie: 0,
    };
    this.groups.set(flow, t);
    t.requests++;
    if (answer.status >= 500) {
      t.fivexx++;
      this.probe.defect(`next targets: ${flow}, ${label}: answered ${answer.status}`);
    }
    if (answer.location !== null && !safeLocation(answer.location, prefix)) {
      t.unsafe++;
      this.probe.defect(
        `next targets: ${flow}, ${label}: Location ${JSON.stringify(answer.location.slice(0, 80))}`,
      );
    }
    const cookieSet = sessionCookie !== null && !!answer.cookies.get(sessionCookie);
    if (cookieSet) t.signedIn++;
    else if (sessionCookie !== null && answer.status < 500) {
      // A hostile target changes where the browser goes, never whether it signs in.
      this.probe.defect(`next targets: ${flow}, ${label}: not signed in (${answer.status})`);
    }
    if (written > 0 && !cookieSet) {
      t.sessionsWithoutCookie += written;
      this.probe.defect(
        `next targets: ${flow}, ${label}: ${written} session(s) stored, no cookie set`,
      );
    }
  }

  print(): void {
    for (const [flow, t] of this.groups) {
      console.log(
        `next targets, ${flow}: ${t.requests} answers` +
          `${t.signs ? ` (${t.signedIn} signed in)` : ''}, ${t.fivexx} 5xx, ` +
          `${t.unsafe} unsafe Location, ${t.sessionsWithoutCookie} sessions without a cookie`,
      );
    }
  }
}

const target = (value: string, prefix: string) => value.replaceAll('@', prefix);
const withNext = (path: string, next: string) =>
  `${path}${path.includes('?') ? '&' : '?'}next=${encodeURIComponent(next)}`;

async function dashboardFlows(probe: ProbeRun, opened: OpenedContext, count: Counter) {
  const { db } = opened.ctx;
  const base = probe.bases[0] as string;
  const user = probe.users[probe.users.length - 1];
  if (!user) throw new Error('the probe has no users');
  const { id: userId } = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', user.email)
    .executeTakeFirstOrThrow();
  const sessionsOf = async (id: string) =>
    Number(
      (
        await db
          .selectFrom('sessions')
          .select((e) => e.fn.countAll().as('n'))
          .where('user_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    );
  for (const [label, raw] of HOSTILE) {
    const next = target(raw, '/dashboard');
    // Password sign-in: the target in the form's address, then in the form itself.
    const from = freshAddress();
    const jar = new Map<string, string>();
    const form = await send(base, withNext('/dashboard/sign-in', next), from, jar);
    count.check('dashboard sign-in form', label, form, '/dashboard', null);
    keep(jar, form);
    const before = await sessionsOf(userId);
    const signedIn = await send(base, '/dashboard/sign-in', from, jar, {
      _csrf: hidden(form.body, '_csrf'),
      email: user.email,
      password: user.password,
      next,
    });
    count.check(
      'dashboard sign-in',
      label,
      signedIn,
      '/dashboard',
      'slotline_session',
      (await sessionsOf(userId)) - before,
    );

    // The invitation's welcome page: a new user per target.
    const email = `probe-next-${lane}-${Date.now()}@example.com`;
    const { user: invited, link } = await inviteUser(
      db,
      systemClock,
      { companyId: probe.companyId, email, role: 'viewer' },
      OPERATOR,
      null,
    );
    const wjar = new Map<string, string>();
    const wfrom = freshAddress();
    const welcomePath = `/dashboard/welcome?token=${encodeURIComponent(link.token)}`;
    const welcome = await send(base, withNext(welcomePath, next), wfrom, wjar);
    count.check('dashboard welcome form', label, welcome, '/dashboard', null);
    keep(wjar, welcome);
    const password = 'a long probe passphrase';
    const accepted = await send(base, withNext('/dashboard/welcome', next), wfrom, wjar, {
      _csrf: hidden(welcome.body, '_csrf'),
      token: link.token,
      password,
      confirmation: password,
      next,
    });
    count.check(
      'dashboard welcome',
      label,
      accepted,
      '/dashboard',
      'slotline_session',
      await sessionsOf(invited.userId),
    );
  }
}

interface Operator {
  email: string;
  secret: string;
  recoveryCodes: string[];
}

const OPERATOR_PASSWORD = 'a long operator passphrase';
const code = (secret: string) => TOTP.generate({ secret: Secret.fromBase32(secret) });

async function consoleFlows(probe: ProbeRun, opened: OpenedContext, count: Counter) {
  const { db } = opened.ctx;
  const base = probe.bases[1] ?? probe.bases[0] ?? '';
  const sessionsOf = async (operatorId: string, step?: 'full') => {
    let q = db
      .selectFrom('operator_sessions')
      .select((e) => e.fn.countAll().as('n'))
      .where('operator_id', '=', operatorId);
    if (step) q = q.where('step', '=', step);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  // One operator per target (a TOTP step signs each in once), enrolled through its link
  // with the target in the welcome forms.
  const operators: (Operator & { label: string; next: string; id: string })[] = [];
  for (const [label, raw] of HOSTILE) {
    const next = target(raw, '/operator');
    const email = `probe-next-${operators.length}-${Date.now()}@slotline.example`;
    const { operator, link } = await createOperator(db, systemClock, { email }, ADMIN_CLI, null);
    const jar = new Map<string, string>();
    const from = freshAddress();
    const welcomePath = `/operator/welcome?token=${encodeURIComponent(link.token)}`;
    const welcome = await send(base, withNext(welcomePath, next), from, jar);
    count.check('console welcome form', label, welcome, '/operator', null);
    keep(jar, welcome);
    const set = await send(base, withNext('/operator/welcome', next), from, jar, {
      _csrf: hidden(welcome.body, '_csrf'),
      token: link.token,
      password: OPERATOR_PASSWORD,
      confirmation: OPERATOR_PASSWORD,
      next,
    });
    count.check(
      'console welcome (password set)',
      label,
      set,
      '/operator',
      'slotline_operator',
      await sessionsOf(operator.operatorId),
    );
    keep(jar, set);
    const enrol = await send(base, withNext('/operator/welcome/authenticator', next), from, jar);
    const secret = /id="manual-key"[^>]*value="([^"]*)"/.exec(enrol.body)?.[1]?.replace(/\s/g, '');
    if (!secret) {
      probe.defect(`next targets: console enrolment, ${label}: no key shown (${enrol.status})`);
      continue;
    }
    const done = await send(base, withNext('/operator/welcome/authenticator', next), from, jar, {
      _csrf: hidden(enrol.body, '_csrf'),
      code: code(secret),
      next,
    });
    count.check('console welcome (authenticator)', label, done, '/operator', 'slotline_operator');
    const codes = /<textarea id="recovery-codes"[^>]*>([^<]*)<\/textarea>/.exec(done.body)?.[1];
    if (!codes) {
      probe.defect(`next targets: console enrolment, ${label}: no recovery codes (${done.status})`);
      continue;
    }
    operators.push({
      label,
      next,
      email,
      secret,
      id: operator.operatorId,
      recoveryCodes: codes.split('\n'),
    });
  }
  // The codes of the enrolments' TOTP step are used: the sign-ins wait for the next step.
  const step = Math.floor(Date.now() / 30_000);
  while (Math.floor(Date.now() / 30_000) === step) await new Promise((r) => setTimeout(r, 250));

  for (const op of operators) {
    for (const method of ['TOTP', 'recovery code'] as const) {
      const jar = new Map<string, string>();
      const from = freshAddress();
      const form = await send(base, withNext('/operator/sign-in', op.next), from, jar);
      count.check('console sign-in form', op.label, form, '/operator', null);
      keep(jar, form);
      const before = await sessionsOf(op.id);
      const first = await send(base, '/operator/sign-in', from, jar, {
        _csrf: hidden(form.body, '_csrf'),
        email: op.email,
        password: OPERATOR_PASSWORD,
        next: op.next,
      });
      count.check(
        'console password step',
        op.label,
        first,
        '/operator',
        'slotline_operator',
        (await sessionsOf(op.id)) - before,
      );
      keep(jar, first);
      const codeForm = await send(base, withNext('/operator/sign-in/code', op.next), from, jar);
      count.check('console code form', op.label, codeForm, '/operator', null);
      const full = await sessionsOf(op.id, 'full');
      const second = await send(base, '/operator/sign-in/code', from, jar, {
        _csrf: hidden(codeForm.body, '_csrf'),
        code: method === 'TOTP' ? code(op.secret) : (op.recoveryCodes.shift() ?? ''),
        next: op.next,
      });
      count.check(
        `console ${method} step`,
        op.label,
        second,
        '/operator',
        'slotline_operator',
        (await sessionsOf(op.id, 'full')) - full,
      );
    }
  }
}

async function workerFlows(probe: ProbeRun, opened: OpenedContext, count: Counter) {
  const { db } = opened.ctx;
  const base = probe.bases[0] as string;
  const prefix = '/dashboard/worker';
  const sessionsOf = async (workerId: string) =>
    Number(
      (
        await db
          .selectFrom('worker_sessions')
          .select((e) => e.fn.countAll().as('n'))
          .where('worker_id', '=', workerId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const worker = await createWorker(db, systemClock, { name: 'Probe', timezone: 'UTC' });
  for (const [label, raw] of HOSTILE) {
    const next = target(raw, prefix);
    const jar = new Map<string, string>();
    const from = freshAddress();
    const form = await send(base, withNext(`${prefix}/sign-in`, next), from, jar);
    count.check('workers sign-in form', label, form, prefix, null);
    keep(jar, form);
    const before = await sessionsOf(worker.workerId);
    const signedIn = await send(base, withNext(`${prefix}/sign-in`, next), from, jar, {
      _csrf: hidden(form.body, '_csrf'),
      token: worker.token,
      next,
    });
    count.check(
      'workers token sign-in',
      label,
      signedIn,
      prefix,
      'slotline_worker_session',
      (await sessionsOf(worker.workerId)) - before,
    );

    const { url } = await createWorkerSignInLink(db, systemClock, worker.workerId, '');
    const token = new URL(url, 'http://probe').searchParams.get('token') ?? '';
    const ljar = new Map<string, string>();
    const lfrom = freshAddress();
    const linkPage = await send(base, withNext(url, next), lfrom, ljar);
    count.check('workers link page', label, linkPage, prefix, null);
    keep(ljar, linkPage);
    const linkBefore = await sessionsOf(worker.workerId);
    const byLink = await send(base, withNext(`${prefix}/link`, next), lfrom, ljar, {
      _csrf: hidden(linkPage.body, '_csrf'),
      token,
      next,
    });
    count.check(
      'workers link sign-in',
      label,
      byLink,
      prefix,
      'slotline_worker_session',
      (await sessionsOf(worker.workerId)) - linkBefore,
    );
  }
}

async function probeNextTargets(probe: ProbeRun): Promise<void> {
  const opened = await openContext(
    loadConfig({ ...process.env, ...probe.env, DATA_DIR: '/tmp/probe-next-targets' }),
    { clock: systemClock, skipMigrations: true },
  );
  const count = new Counter(probe);
  try {
    await dashboardFlows(probe, opened, count);
    await workerFlows(probe, opened, count);
    await consoleFlows(probe, opened, count);
  } finally {
    await opened.close();
  }
  count.print();
}

export const nextTargetSections: Section[] = [
  { name: 'sign-in next targets', run: probeNextTargets },
];
