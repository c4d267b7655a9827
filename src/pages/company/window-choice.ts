// When a post goes out, as the composer and the queue form choose it: the next free window
// (no floor), a particular day's window, or "not before" a date and time, for all accounts or
// per account. Each choice becomes the item's earliest-release floor (SPEC 2.2
// `scheduledAfter`); the planned window shown beside each account is the planner's, the same
// the API returns as `scheduledSlotStart` once the item is queued.
//
// Form fields: `when` (next, day or after), `whenDay` ("yyyy-mm-dd" in the reader's time),
// `notBefore` ("yyyy-mm-ddTHH:mm" in the reader's time) and per account `at.<accountId>`
// ("" follows the choice for all, "next", or a window start as an ISO instant).
import type { AppContext } from '../../context.ts';
import { zonedInstant } from '../../schedule/windows.ts';
import {
  accountWindows,
  plannedStartFor,
  type AccountWindows,
} from '../../modules/planning/index.ts';
import { fieldError, type FieldError } from './forms.ts';
import { LIMITS } from './compose-form.ts';
import { BASE } from './session.ts';
import { clockface, type Clockface } from './time.ts';

export const WHEN_KINDS = ['next', 'day', 'after'] as const;
export type WhenKind = (typeof WHEN_KINDS)[number];

export interface WhenForm {
  when: WhenKind;
  day: string;
  notBefore: string;
  /** Per account: "" (as for all), "next", or a window start. */
  per: Record<string, string>;
}

/** The longest a floor may lie ahead. */
const MAX_AHEAD_DAYS = 90;
/** Free windows offered per account. */
const OFFERED = 12;

type Body = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined): string =>
  (Array.isArray(v) ? v[0] : v)?.trim() ?? '';

export function whenOf(body: Body | undefined): WhenForm {
  const b = body ?? {};
  const kind = one(b.when);
  const per: Record<string, string> = {};
  for (const [name, value] of Object.entries(b)) {
    if (name.startsWith('at.') && name.length <= 80) per[name.slice(3)] = one(value).slice(0, 40);
  }
  return {
    when: (WHEN_KINDS as readonly string[]).includes(kind) ? (kind as WhenKind) : 'next',
    day: one(b.whenDay).slice(0, 10),
    notBefore: one(b.notBefore).slice(0, 16),
    per,
  };
}

export interface WindowOption {
  value: string;
  text: string;
  selected: boolean;
}

export interface WindowRow {
  accountId: string;
  username: string;
  platform: string;
  /** The worker's timezone, and whether it differs from the reader's. */
  workerZone: string;
  otherZone: boolean;
  /** Why nothing is planned for the account, in words; null when it receives releases. */
  blocked: string | null;
  /** The planned window: reader's time, and the worker's beside it when that differs. */
  planned: { iso: string; reader: string; worker: string } | null;
  /** The floor the choice sets (an ISO instant), or null for the next free window. */
  floor: string | null;
  pick: string;
  options: WindowOption[];
  /** What is wrong with the choice for this account, in words. */
  error: string | null;
}

const BLOCKED_WORDS: Record<string, string> = {
  account_paused: 'paused: nothing is released until it is resumed',
  account_disconnected: 'disconnected: its worker lost access',
  account_pending_setup: 'waiting for its worker to set it up',
};

/** Formatters by timezone: making one costs far more than formatting with it. */
const dayTimes = new Map<string, Intl.DateTimeFormat>();

/** "Tue 2 Jun, 14:00" in a timezone. */
function dayTime(iso: string, timezone: string): string {
  let format = dayTimes.get(timezone);
  if (!format) {
    if (dayTimes.size >= 500) dayTimes.clear();
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: timezone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    dayTimes.set(timezone, format);
  }
  return format.format(new Date(iso));
}

/** The two times of an instant: the reader's, and the worker's when the zones differ. */
export function bothTimes(iso: string, reader: Clockface, workerZone: string) {
  return {
    iso,
    reader: dayTime(iso, reader.timezone),
    worker: `${clockface(workerZone).time(iso)} ${workerZone.replace(/_/g, ' ')}`,
  };
}

/** The instant a reader's "yyyy-mm-ddTHH:mm" names, or null when it is not one. */
function readerInstant(text: string, timezone: string): Date | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})$/.exec(text);
  if (!m) return null;
  const at = zonedInstant(m[1] as string, m[2] as string, timezone);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** The floor of one account from the form, or the words of what is wrong with it. */
function floorOf(
  aw: AccountWindows,
  form: WhenForm,
  reader: Clockface,
): { floor: Date | null; error: string | null } {
  const free = aw.choices.filter((c) => c.state === 'free');
  const pick = form.per[aw.account.id] ?? '';
  if (pick === 'next') return { floor: null, error: null };
  if (pick !== '') {
    const chosen = free.find((c) => c.start.toISOString() === pick);
    if (chosen) return { floor: chosen.start, error: null };
    const taken = aw.choices.find((c) => c.start.toISOString() === pick);
    return {
      floor: null,
      error: taken
        ? 'that window has been taken since; choose another'
        : 'that is not one of its coming windows; choose another',
    };
  }
  if (form.when === 'day') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(form.day)) return { floor: null, error: 'choose a day' };
    const first = free.find((c) => reader.localDate(c.start.toISOString()) === form.day);
    if (first) return { floor: first.start, error: null };
    return { floor: null, error: `no free window on ${reader.date(`${form.day}T12:00:00Z`)}` };
  }
  if (form.when === 'after') {
    const at = readerInstant(form.notBefore, reader.timezone);
    if (!at) return { floor: null, error: 'give a date and a time' };
    const now = aw.basis.now.getTime();
    if (at.getTime() < now - 60_000) return { floor: null, error: 'that time has passed' };
    if (at.getTime() > now + MAX_AHEAD_DAYS * 86_400_000) {
      return { floor: null, error: `at most ${MAX_AHEAD_DAYS} days ahead` };
    }
    return { floor: at, error: null };
  }
  return { floor: null, error: null };
}

/**
 * Each chosen account's windows with the choice applied: where the item goes and what it
 * may choose instead. `exclude` is an item being moved (planned as if it were not queued).
 */
export async function windowRows(
  ctx: AppContext,
  companyId: string,
  accountIds: readonly string[],
  form: WhenForm,
  reader: Clockface,
  priority = 0,
  exclude?: string,
): Promise<WindowRow[]> {
  const all = await accountWindows(ctx, companyId, accountIds, exclude);
  return all.map((aw) => {
    const tz = aw.account.timezone;
    const { floor, error } = floorOf(aw, form, reader);
    const blocked = aw.blocked === null ? null : (BLOCKED_WORDS[aw.blocked] ?? aw.blocked);
    const start =
      blocked === null && error === null ? plannedStartFor(aw.basis, floor, priority) : null;
    const pick = form.per[aw.account.id] ?? '';
    const options = aw.choices
      .filter((c) => c.state === 'free')
      .slice(0, OFFERED)
      .map((c) => {
        const iso = c.start.toISOString();
        const t = bothTimes(iso, reader, tz);
        return {
          value: iso,
          text: tz === reader.timezone ? t.reader : `${t.reader} (${t.worker})`,
          selected: pick === iso,
        };
      });
    return {
      accountId: aw.account.id,
      username: aw.account.username,
      platform: aw.account.platform,
      workerZone: tz,
      otherZone: tz !== reader.timezone,
      blocked,
      planned: start ? bothTimes(start.toISOString(), reader, tz) : null,
      floor: floor ? floor.toISOString() : null,
      pick,
      options,
      error,
    };
  });
}

/** The floors the rows set, by account; or the errors to show beside the window choice. */
export function floorsOf(rows: readonly WindowRow[]): {
  floors: Map<string, string>;
  errors: FieldError[];
} {
  const floors = new Map<string, string>();
  const errors: FieldError[] = [];
  for (const r of rows) {
    if (r.error !== null) {
      errors.push(
        fieldError(`at.${r.accountId}`, `When, @${r.username}: ${r.error}.`, `at-${r.accountId}`),
      );
    } else if (r.floor !== null) {
      floors.set(r.accountId, r.floor);
    }
  }
  return { floors, errors };
}

/** The coming days a reader may pick, "yyyy-mm-dd" with their names. */
export function comingDays(
  reader: Clockface,
  now: Date,
  days = 7,
): { value: string; text: string }[] {
  const out: { value: string; text: string }[] = [];
  const seen = new Set<string>();
  const named = new Intl.DateTimeFormat('en-GB', {
    timeZone: reader.timezone,
    weekday: 'long',
    day: 'numeric',
    month: 'short',
  });
  for (let h = 0; out.length < days && h < days * 24 + 48; h += 6) {
    const iso = new Date(now.getTime() + h * 3_600_000).toISOString();
    const value = reader.localDate(iso);
    if (seen.has(value)) continue;
    seen.add(value);
    const name = named.format(new Date(iso));
    out.push({
      value,
      text: out.length === 0 ? `Today, ${name}` : out.length === 1 ? `Tomorrow, ${name}` : name,
    });
  }
  return out;
}

/** The priority a form gives, for planning (0 when it is not a whole number in bounds). */
export function planningPriority(text: string): number {
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 && n <= LIMITS.priority ? n : 0;
}

/**
 * What views/window-choice.eta shows: the choice as typed (its day defaulting to tomorrow,
 * since today is what "next free window" means), the days to pick from and each chosen
 * account's row.
 */
export async function whenChoiceOf(
  ctx: AppContext,
  companyId: string,
  accountIds: readonly string[],
  when: WhenForm,
  reader: Clockface,
  options: { priority: string; pending: boolean },
) {
  const now = ctx.clock.now();
  const tomorrow = reader.localDate(new Date(now.getTime() + 86_400_000).toISOString());
  return {
    when: when.day ? when : { ...when, day: tomorrow },
    days: comingDays(reader, now),
    rows: await windowRows(
      ctx,
      companyId,
      accountIds,
      when,
      reader,
      planningPriority(options.priority),
    ),
    pending: options.pending,
    zone: reader.zoneName(),
    rowsUrl: `${BASE}/compose/windows`,
  };
}
