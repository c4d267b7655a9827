// The forms of a worker's pages in the console as sent (every field an optional string) and
// the checks of its settings form, each problem worded for the field it names.
import { Type } from 'typebox';
import { Repeated } from '../kit/forms.ts';
import { MAX_WORKER_NAME, isWorkerTimezone } from '../../modules/workers/index.ts';
import { MAX_TIMEZONE } from './fields.ts';

export const WorkerParams = Type.Object({ workerId: Type.String({ maxLength: 200 }) });
/**
 * The company whose accounts the page offers; `select` ticks every box of one list, for a
 * browser without script (with script, the "Select all" box does it in place).
 */
export const WorkerQuery = Type.Object({
  company: Type.Optional(Type.String({ maxLength: 200 })),
  select: Type.Optional(Type.Union([Type.Literal('give'), Type.Literal('take')])),
});
export type WorkerQueryIn = { company?: string | undefined; select?: 'give' | 'take' | undefined };
/** The forms as sent: every field an optional string, checked by the handler. */
export const WorkerForm = Type.Object({
  name: Type.Optional(Type.String()),
  timezone: Type.Optional(Type.String()),
});
export const AccountsForm = Type.Object({
  company: Type.Optional(Type.String()),
  account: Type.Optional(Repeated),
});

export type FieldErrors = Record<string, string>;

export interface WorkerFields {
  name: string;
  timezone: string;
}

/** What went wrong with an action, shown next to its form. */
export interface Problems {
  settings?: { form: WorkerFields; errors: FieldErrors };
  assign?: string;
  unassign?: string;
}

export function checkWorkerForm(form: WorkerFields): FieldErrors {
  const errors: FieldErrors = {};
  const length = [...form.name].length;
  if (length === 0) errors.name = 'Enter the worker’s name.';
  else if (length > MAX_WORKER_NAME) {
    errors.name = `A name has at most ${MAX_WORKER_NAME} characters.`;
  }
  if (form.timezone.length === 0) {
    errors.timezone = 'Enter the worker’s timezone, an IANA name such as Europe/Berlin.';
  } else if (form.timezone.length > MAX_TIMEZONE || !isWorkerTimezone(form.timezone)) {
    errors.timezone = `“${form.timezone.slice(0, MAX_TIMEZONE)}” is not an IANA timezone; pick one from the suggestions, such as Europe/Berlin.`;
  }
  return errors;
}

export function fieldsOf(body: { name?: string | undefined; timezone?: string | undefined }) {
  return { name: body.name?.trim() ?? '', timezone: body.timezone?.trim() ?? '' };
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
