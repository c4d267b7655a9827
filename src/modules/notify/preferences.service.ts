// Who gets a message, and when: a person's choices of kinds and channels (opt-outs for the
// kinds on by default, opt-ins for the others) and their quiet hours, read for any number
// of owners in two queries (the release path asks for thousands of workers at once), and
// written from the notifications pages of the three apps.
import type { DbOrTx } from '../../db/types.ts';
import { validTimezone } from '../../schedule/local-time.ts';
import {
  kindOf,
  kindsOf,
  sendTimeFor,
  type Audience,
  type NotifyKind,
  type PersonalChannel,
  type QuietHours,
} from './notify-kinds.rules.ts';
import * as repo from './notify.repository.ts';

/** Owners read per query: well under either database's bound on parameters. */
const OWNERS_PER_QUERY = 1000;

export interface RecipientsRequest {
  audience: Audience;
  ownerIds: readonly string[];
  kind: string;
  channel: PersonalChannel;
  /** Goes through quiet hours; by default as the catalogue says (kinds it lacks: not). */
  urgent?: boolean;
}

/**
 * The owners who take `kind` on `channel`, each with the time to send it: `now`, or the end
 * of their quiet hours in their own timezone. Owners who turned it off are absent; a kind
 * the catalogue lists without the channel reaches nobody by it; a kind it does not list
 * (a test push) counts as on and not urgent.
 */
export async function recipientsFor(
  db: DbOrTx,
  request: RecipientsRequest,
  now: Date,
): Promise<Map<string, Date>> {
  const out = new Map<string, Date>();
  const known = kindOf(request.audience, request.kind);
  if (known && !known.channels.includes(request.channel)) return out;
  const defaultOn = known?.defaultOn ?? true;
  const urgent = request.urgent ?? known?.urgent ?? false;
  const owners = [...new Set(request.ownerIds)];
  for (let i = 0; i < owners.length; i += OWNERS_PER_QUERY) {
    const part = owners.slice(i, i + OWNERS_PER_QUERY);
    const { audience, kind, channel } = request;
    const table = defaultOn ? 'notify_opt_outs' : 'notify_opt_ins';
    const listed = await repo.listedIn(db, table, audience, part, kind, channel);
    const taking = part.filter((id) => listed.has(id) !== defaultOn);
    for (const id of taking) out.set(id, now);
    if (urgent || taking.length === 0) continue;
    for (const q of await repo.quietHoursOf(db, audience, taking)) {
      const zone = q.own_timezone ?? q.timezone ?? 'UTC';
      out.set(q.owner_id, sendTimeFor({ start: q.quiet_start, end: q.quiet_end }, zone, now));
    }
  }
  return out;
}

/** Everyone of `audience` who turned a default-off `kind` on for `channel` (a daily summary). */
export function ownersOptedIn(
  db: DbOrTx,
  audience: Audience,
  kind: string,
  channel: PersonalChannel,
): Promise<string[]> {
  return repo.ownersOptedIn(db, audience, kind, channel);
}

/** One kind as a person's notifications page shows it, with each channel's switch. */
export interface KindChoice extends NotifyKind {
  on: Record<PersonalChannel, boolean>;
}

export interface Preferences {
  kinds: KindChoice[];
  /** Null: no quiet hours. */
  quiet: (QuietHours & { timezone: string | null }) | null;
}

/** A person's choices, every kind of their audience in the catalogue's order. */
export async function preferencesOf(
  db: DbOrTx,
  audience: Audience,
  ownerId: string,
): Promise<Preferences> {
  const { outs, ins, quiet } = await repo.choicesOf(db, audience, ownerId);
  const has = (rows: readonly { kind: string; channel: string }[], k: string, c: string) =>
    rows.some((r) => r.kind === k && r.channel === c);
  const kinds = kindsOf(audience).map((k) => {
    const on = { email: false, push: false };
    for (const c of k.channels) on[c] = k.defaultOn ? !has(outs, k.kind, c) : has(ins, k.kind, c);
    return { ...k, on };
  });
  return {
    kinds,
    quiet: quiet
      ? { start: quiet.quiet_start, end: quiet.quiet_end, timezone: quiet.timezone }
      : null,
  };
}

/** What a notifications page saves: the switches that are on, and the quiet hours. */
export interface PreferencesInput {
  /** `kind:channel` of each switch on; every other switch of the audience is off. */
  on: readonly string[];
  quiet: (QuietHours & { timezone: string | null }) | null;
}

/**
 * Saves a person's choices for every kind of their audience at once. The caller checked
 * the quiet hours (HH:MM each, a known timezone); switches the catalogue lacks are ignored.
 */
export async function savePreferences(
  db: DbOrTx,
  audience: Audience,
  ownerId: string,
  input: PreferencesInput,
  now: Date,
): Promise<void> {
  const on = new Set(input.on);
  const outs: { kind: string; channel: PersonalChannel }[] = [];
  const ins: { kind: string; channel: PersonalChannel }[] = [];
  for (const k of kindsOf(audience)) {
    for (const channel of k.channels) {
      const wanted = on.has(`${k.kind}:${channel}`);
      if (k.defaultOn && !wanted) outs.push({ kind: k.kind, channel });
      if (!k.defaultOn && wanted) ins.push({ kind: k.kind, channel });
    }
  }
  const quiet =
    input.quiet && input.quiet.start !== input.quiet.end
      ? {
          ...input.quiet,
          timezone:
            input.quiet.timezone && validTimezone(input.quiet.timezone)
              ? input.quiet.timezone
              : null,
        }
      : null;
  const write = (tx: DbOrTx) =>
    repo.replaceChoices(
      tx,
      audience,
      ownerId,
      kindsOf(audience).map((k) => k.kind),
      outs,
      ins,
      quiet,
      now.toISOString(),
    );
  await (db.isTransaction ? write(db) : db.transaction().execute(write));
}
