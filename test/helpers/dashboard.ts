// A browser without JavaScript over app.inject, for the dashboard's tests: a cookie jar,
// form posts, and signing in as a fresh user of a company.
import assert from 'node:assert/strict';
import type { TestApp } from './app.ts';
import { createUser } from '../../src/modules/users/index.ts';
import type { UserRole } from '../../src/db/types.ts';

export interface Browser {
  cookies: Map<string, string>;
  get(url: string): Promise<{ status: number; body: string; location?: string }>;
  post(
    url: string,
    form: Record<string, string | string[]>,
  ): Promise<{ status: number; body: string; location?: string }>;
}

type Answer = { status: number; body: string; location?: string };

/** Sends one request with the jar's cookies; answers with its Set-Cookie lines. */
export type Transport = (
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  payload?: string,
) => Promise<Answer & { setCookie: string[] }>;

/** A cookie jar over any transport, as a browser without JavaScript would behave. */
export function cookieBrowser(send: Transport, cookies = new Map<string, string>()): Browser {
  const remember = (setCookie: string[]) => {
    for (const c of setCookie) {
      const [pair] = c.split(';');
      const eq = (pair as string).indexOf('=');
      const name = (pair as string).slice(0, eq);
      const value = (pair as string).slice(eq + 1);
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(c)) cookies.delete(name);
      else cookies.set(name, value);
    }
  };
  const request = async (method: 'GET' | 'POST', url: string, payload?: string) => {
    const headers: Record<string, string> = {
      cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      ...(payload !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    };
    const { setCookie, ...answer } = await send(method, url, headers, payload);
    remember(setCookie);
    return answer;
  };
  return {
    cookies,
    get: (url) => request('GET', url),
    post: (url, form) => {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(form)) {
        for (const one of Array.isArray(v) ? v : [v]) params.append(k, one);
      }
      return request('POST', url, params.toString());
    },
  };
}

/** A cookie jar over app.inject. */
export function browser(t: TestApp, ip = '203.0.113.7'): Browser {
  return cookieBrowser(async (method, url, headers, payload) => {
    const res = await t.app.inject({
      method,
      url,
      remoteAddress: ip,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
    const set = res.headers['set-cookie'];
    const location = res.headers.location;
    return {
      status: res.statusCode,
      body: res.body,
      setCookie: Array.isArray(set) ? set : set ? [set] : [],
      ...(typeof location === 'string' ? { location } : {}),
    };
  });
}

/** A JSON request as a page's script sends it: the browser's cookies and the CSRF header. */
export function scriptRequest(
  t: TestApp,
  b: Browser,
  method: 'PUT' | 'DELETE',
  url: string,
  body: unknown,
  csrf?: string,
) {
  const cookie = [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return t.app.inject({
    method,
    url,
    headers: {
      cookie,
      'content-type': 'application/json',
      ...(csrf ? { 'x-csrf-token': csrf } : {}),
    },
    payload: JSON.stringify(body),
  });
}

/** A cookie jar over real HTTP to `base`; pass one jar to several bases to share a session. */
export function httpBrowser(base: string, cookies?: Map<string, string>): Browser {
  return cookieBrowser(async (method, url, headers, payload) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers,
      redirect: 'manual',
      ...(payload !== undefined ? { body: payload } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    const location = res.headers.get('location');
    return {
      status: res.status,
      body: await res.text(),
      setCookie: res.headers.getSetCookie(),
      ...(location !== null ? { location } : {}),
    };
  }, cookies);
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
