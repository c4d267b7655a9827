// What every page of the workers' app shares: its address, its notices, the signed-in
// worker, rendering inside the app's own layout, times in the worker's timezone, and the
// services' refusals worded for the person holding the phone. The app's pages import this
// file; the plugin (worker.plugin.ts) imports the pages; nothing imports either back.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FlashScope } from '../kit/flash.ts';
import { inLayout, maskToken } from '../kit/session.ts';
import type { WorkerSession } from '../../modules/workers/index.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

export const WORKER_BASE = '/dashboard/worker';
/**
 * Where the app's stylesheet, script, manifest and icons are served: by the dashboard, beside
 * its own (worker.plugin.ts WORKER_ASSETS), at the addresses installed apps know.
 */
const ASSETS_URL = '/dashboard/assets';

/** The app's notices: their own cookie, belonging to the worker session. */
export const WORKER_FLASH: FlashScope = {
  cookie: 'slotline_worker_notice',
  path: WORKER_BASE,
  owner: (req) => req.workerSession,
};

declare module 'fastify' {
  interface FastifyRequest {
    workerSession: WorkerSession | null;
  }
  interface FastifyContextConfig {
    /** A workers' page open without a worker session (sign-in and sign-in links). */
    workerAnonymous?: boolean;
  }
}

export function sessionOf(req: FastifyRequest): WorkerSession {
  if (!req.workerSession) throw new ActionRefused('signed_out', 'Sign in with your worker token.');
  return req.workerSession;
}

/** A multipart form's file as the app's handlers receive it. */
export interface SentFile {
  filename: string;
  contentType: string;
  bytes: Buffer;
  /** The file was longer than the proof limit: `bytes` holds only its start. */
  truncated: boolean;
}

/** Field errors of a form, by field name, worded for people. */
export type FieldErrors = Record<string, string>;

/** How a page writes instants and figures: in the worker's own timezone and locale style. */
export function formatsFor(timeZone: string, now: Date) {
  const full = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
  const clock = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
  });
  const dayOf = new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' });
  const today = dayOf.format(now);
  const tomorrow = dayOf.format(new Date(now.getTime() + 24 * 3_600_000));
  const numbers = new Intl.NumberFormat('en-GB');
  return {
    timeZone,
    /** "Tue 4 Mar, 11:00". */
    when: (iso: string) => full.format(new Date(iso)),
    /** "11:00". */
    clock: (iso: string) => clock.format(new Date(iso)),
    /** "today at 11:00", "tomorrow at 08:00" or "Tue 4 Mar, 08:00". */
    soon: (iso: string) => {
      const day = dayOf.format(new Date(iso));
      if (day === today) return `today at ${clock.format(new Date(iso))}`;
      if (day === tomorrow) return `tomorrow at ${clock.format(new Date(iso))}`;
      return full.format(new Date(iso));
    },
    /** "12,500". */
    num: (n: number) => numbers.format(n),
  };
}

export type Formats = ReturnType<typeof formatsFor>;

/**
 * A service's message without the ids it names: the page is about one task or account, so
 * "Task qit_… is already posted" reads "This task is already posted".
 */
export function withoutIds(message: string): string {
  return message.replace(/\b(Task|Account) [a-z]{2,4}_[0-9a-z]+\b/g, (_whole, what: string) =>
    what === 'Task' ? 'This task' : 'This account',
  );
}

/**
 * A service's message as the page shows it: the JSON pointer it starts with becomes the
 * field's name ("/views must not be fewer than …" → "Views must not be fewer than …"), the
 * instants it quotes are written in the worker's time, and ids give way to "this task".
 */
export function plainMessage(message: string, labels: Record<string, string>, f: Formats): string {
  const named = message.replace(/^\/([A-Za-z]+)(\S*)/, (whole, field: string, rest: string) => {
    const label = labels[field];
    return label && rest === '' ? label : whole;
  });
  return withoutIds(named).replace(/\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?Z/g, (iso) =>
    Number.isNaN(Date.parse(iso)) ? iso : f.when(iso),
  );
}

/**
 * Where a service's message shows on a form: next to the field its JSON pointer names when
 * the form has that field among `fields`, else over the form as a whole (`''`).
 */
export function fieldOf(message: string, fields: readonly string[]): string {
  const named = /^\/([A-Za-z]+)/.exec(message)?.[1];
  return named !== undefined && fields.includes(named) ? named : '';
}

/** Renders a page of the app inside its own layout (no company navigation). */
export function workerPage(
  req: FastifyRequest,
  reply: FastifyReply,
  now: Date,
  template: string,
  title: string,
  data: Record<string, unknown> = {},
) {
  const session = req.workerSession;
  const path = req.url.split('?')[0] ?? '';
  return inLayout(reply, template, 'layout.eta', {
    ...data,
    title,
    // Each page carries its own masking of the CSRF token (pages/kit/session.ts maskToken).
    session: session ? { ...session, csrfToken: maskToken(session.csrfToken) } : null,
    base: WORKER_BASE,
    assets: ASSETS_URL,
    section: path.startsWith(`${WORKER_BASE}/accounts`)
      ? 'accounts'
      : path.startsWith(`${WORKER_BASE}/notifications`)
        ? 'notifications'
        : 'tasks',
    f: formatsFor(session?.worker.timezone ?? 'UTC', now),
  });
}

/** Whole counts as people type them: digits, maybe grouped (12,500 or 12 500). */
export function parseCount(text: string): number | null {
  const t = text.trim();
  if (!/^\d{1,3}(?:[,.' \u00a0\u202f]\d{3})+$|^\d+$/.test(t)) return null;
  const n = Number(t.replace(/\D/g, ''));
  return Number.isSafeInteger(n) ? n : null;
}

/** A percentage as people type it: 4.25, 4,25 or 4.25 %. */
export function parsePercent(text: string): number | null {
  const m = /^(\d+(?:[.,]\d+)?)\s*%?$/.exec(text.trim());
  return m ? Number((m[1] as string).replace(',', '.')) : null;
}
