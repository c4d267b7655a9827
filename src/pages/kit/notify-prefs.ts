// The notifications form every app shows (dashboard, console, workers' app): a switch per
// kind and channel, and quiet hours (from, to, the timezone they are read in). What each
// app's page passes in is its audience's catalogue as plain data (the kit imports no
// module); what comes back is the choices to save, or every refused field in plain words.
import { Type, type Static } from 'typebox';
import { fieldError, type FieldError } from './form-errors.ts';
import { Repeated, valuesOf } from './forms.ts';

/** The form as sent. */
export const PrefsForm = Type.Object({
  on: Type.Optional(Repeated),
  quiet: Type.Optional(Type.String({ maxLength: 10 })),
  quietStart: Type.Optional(Type.String({ maxLength: 40 })),
  quietEnd: Type.Optional(Type.String({ maxLength: 40 })),
  timezone: Type.Optional(Type.String({ maxLength: 200 })),
});
export type SentPrefs = Static<typeof PrefsForm>;

/** A kind as the catalogue gives it, with its switches as saved. */
export interface KindRow {
  kind: string;
  label: string;
  about: string;
  channels: readonly ('email' | 'push')[];
  urgent: boolean;
  on: Record<'email' | 'push', boolean>;
}

/** What the form shows: as saved, or as sent when refused. */
export interface PrefsFormState {
  on: string[];
  quiet: boolean;
  start: string;
  end: string;
  timezone: string;
}

export interface SavedPrefs {
  kinds: readonly KindRow[];
  quiet: { start: string; end: string; timezone: string | null } | null;
}

const CHANNEL_LABELS = { email: 'Email', push: 'Push' } as const;
const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** More switches than any catalogue has: a form with more was not sent by the page. */
const MAX_SWITCHES = 40;
const MAX_TIMEZONE = 64;

/** The table's rows: each kind with a cell per channel, off or on or not offered. */
export function prefsRows(kinds: readonly KindRow[], on: readonly string[]) {
  const chosen = new Set(on);
  return kinds.map((k) => ({
    ...k,
    cells: (['email', 'push'] as const).map((channel) => ({
      channel,
      channelLabel: CHANNEL_LABELS[channel],
      offered: k.channels.includes(channel),
      value: `${k.kind}:${channel}`,
      id: `pref-${k.kind.replaceAll('_', '-')}-${channel}`,
      on: chosen.has(`${k.kind}:${channel}`),
    })),
  }));
}

/** The form's state as saved. */
export function stateOf(saved: SavedPrefs, fallbackZone: string): PrefsFormState {
  return {
    on: saved.kinds.flatMap((k) => k.channels.filter((c) => k.on[c]).map((c) => `${k.kind}:${c}`)),
    quiet: saved.quiet !== null,
    start: saved.quiet?.start ?? '22:00',
    end: saved.quiet?.end ?? '07:00',
    timezone: saved.quiet?.timezone ?? fallbackZone,
  };
}

export type PrefsCheck =
  | {
      ok: true;
      state: PrefsFormState;
      input: {
        on: string[];
        quiet: { start: string; end: string; timezone: string | null } | null;
      };
    }
  | { ok: false; state: PrefsFormState; errors: FieldError[] };

/**
 * Reads the form. `zone` says where the quiet hours' timezone comes from: the person's own
 * (`{ own: 'Europe/Berlin' }`, the form has no field for it) or the form's field, checked
 * with `validZone`.
 */
export function readPrefs(
  body: SentPrefs,
  zone: { own: string } | { field: true; validZone: (name: string) => boolean },
): PrefsCheck {
  const on = [...new Set(valuesOf(body.on))];
  const state: PrefsFormState = {
    on,
    quiet: body.quiet === 'on',
    start: (body.quietStart ?? '').trim(),
    end: (body.quietEnd ?? '').trim(),
    timezone: 'own' in zone ? zone.own : (body.timezone ?? '').trim(),
  };
  const errors: FieldError[] = [];
  if (on.length > MAX_SWITCHES) {
    errors.push(fieldError('', `At most ${MAX_SWITCHES} switches can be sent at once.`, ''));
  }
  if (state.quiet) {
    const bad = (v: string) => !HHMM.test(v);
    if (bad(state.start)) {
      errors.push(
        fieldError(
          'quietStart',
          `Quiet from: “${state.start.slice(0, 20)}” is not a time of day; enter it as 22:00.`,
          'quiet-start',
        ),
      );
    }
    if (bad(state.end)) {
      errors.push(
        fieldError(
          'quietEnd',
          `Quiet until: “${state.end.slice(0, 20)}” is not a time of day; enter it as 07:00.`,
          'quiet-end',
        ),
      );
    }
    if (!bad(state.start) && state.start === state.end) {
      errors.push(
        fieldError(
          'quietEnd',
          'Quiet until: the same as the start; choose a later time, or turn quiet hours off.',
          'quiet-end',
        ),
      );
    }
    if (
      !('own' in zone) &&
      (state.timezone.length > MAX_TIMEZONE || !zone.validZone(state.timezone))
    ) {
      errors.push(
        fieldError(
          'timezone',
          `Timezone: “${state.timezone.slice(0, MAX_TIMEZONE)}” is not a timezone this service knows; choose one from the list, such as Europe/Berlin.`,
          'quiet-timezone',
        ),
      );
    }
  }
  if (errors.length > 0) return { ok: false, state, errors };
  return {
    ok: true,
    state,
    input: {
      on,
      quiet: state.quiet ? { start: state.start, end: state.end, timezone: state.timezone } : null,
    },
  };
}

/** The flash after a save, in words. */
export function savedMessage(state: PrefsFormState, zoneName: string): string {
  return state.quiet
    ? `Notification settings saved. Quiet hours: ${state.start} to ${state.end}, ${zoneName}.`
    : 'Notification settings saved. No quiet hours.';
}
