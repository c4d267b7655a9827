// A browser without JavaScript over app.inject, for the dashboard's tests: a cookie jar,
// form posts, and signing in as a fresh user of a company.
import assert from 'node:assert/strict';
import type { TestApp } from './app.ts';
import { createUser } from '../../src/modules/users/users.service.ts';
import type { UserRole } from '../../src/db/types.ts';

export interface Browser {
  cookies: Map<string, string>;
  get(url: string): Promise<{ status: number; body: string; location?: string }>;
  post(
    url: string,
    form: Record<string, string | string[]>,
  ): Promise<{ status: number; body: string; location?: string }>;
}

/** A cookie jar over app.inject, as a browser without JavaScript would behave. */
export function browser(t: TestApp, ip = '203.0.113.7'): Browser {
  const cookies = new Map<string, string>();
  const remember = (setCookie: string | string[] | undefined) => {
    for (const c of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair] = c.split(';');
      const eq = (pair as string).indexOf('=');
      const name = (pair as string).slice(0, eq);
      const value = (pair as string).slice(eq + 1);
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(c)) cookies.delete(name);
      else cookies.set(name, value);
    }
  };
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const send = async (method: 'GET' | 'POST', url: string, payload?: string) => {
    const res = await t.app.inject({
      method,
      url,
      remoteAddress: ip,
      headers: {
        cookie: cookieHeader(),
        ...(payload !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(payload !== undefined ? { payload } : {}),
    });
    remember(res.headers['set-cookie']);
    const location = res.headers.location;
    return {
      status: res.statusCode,
      body: res.body,
      ...(typeof location === 'string' ? { location } : {}),
    };
  };
  return {
    cookies,
    get: (url) => send('GET', url),
    post: (url, form) => {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(form)) {
        for (const one of Array.isArray(v) ? v : [v]) params.append(k, one);
      }
      return send('POST', url, params.toString());
    },
  };
}

export function hidden(html: string, name: string): string {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  assert.ok(m, `no hidden field ${name}`);
  return m[1] as string;
}

export async function signIn(b: Browser, email: string, password: string) {
  const form = await b.get('/dashboard/sign-in');
  assert.equal(form.status, 200);
  return b.post('/dashboard/sign-in', {
    _csrf: hidden(form.body, '_csrf'),
    next: '/dashboard/approvals',
    email,
    password,
  });
}

let users = 0;

/** A user of the company; every email is new, as the tests share one app. */
export async function userIn(
  t: TestApp,
  companyId: string,
  role: UserRole,
  email = `${role}-${++users}@example.com`,
) {
  const { user, password } = await createUser(t.ctx.db, t.ctx.clock, { companyId, email, role });
  return { user, password, email };
}

/** Signs in on the workers' page by pasting the worker token. */
export async function workerSignIn(b: Browser, token: string) {
  const form = await b.get('/dashboard/worker/sign-in');
  assert.equal(form.status, 200);
  return b.post('/dashboard/worker/sign-in', { _csrf: hidden(form.body, '_csrf'), token });
}

/**
 * A page with what differs on every response taken out (its request id and the fresh masking
 * of the CSRF token), to compare two answers for sameness.
 */
export function pageShape(html: string): string {
  return html
    .replace(/req_\w+/g, 'req')
    .replace(/(name="_csrf" value=")[^"]*"/g, '$1"')
    .replace(/("x-csrf-token": ")[^"]*"/g, '$1"');
}
