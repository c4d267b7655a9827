// Form errors in plain words, all at once. A page checks what a form stands for against the
// API's own schema (so the form accepts what the API accepts), with a validator that reports
// every broken rule; each error is then worded for people and named as the form labels its
// field: "Warm-up search terms: at most 5 (you entered 6)". The /v2 API keeps its own
// error envelope (http/validation.ts); nothing here changes it.
//
// How a page uses it:
//
//   // 1. Once per form: the schema of the value the form stands for (often the API's
//   //    body) and how the form labels each of its fields, in the form's order.
//   const checkTag = formCheck(CreateTagBody, {
//     name: 'Name',
//     color: { label: 'Color', id: 'tag-color' },
//     // A nested value, keyed by its dotted path, shown next to the control `searchTerms`:
//     'warmup.searchTerms': { label: 'Warm-up search terms', field: 'searchTerms', item: 'term' },
//   });
//
//   // 2. In the handler: every error, or the value.
//   const checked = checkTag(value);
//   if (!checked.ok) { reply.code(400); return page(..., { errors: checked.errors, form }); }
//   // A refusal of the service (a name taken) joins the list the same way:
//   errors = [fieldError('name', `A tag named “${name}” already exists.`, 'tag-name')];
//
//   // 3. In the template: the summary at the top of the form (a partial of the page family,
//   //    dashboard views/form-errors.eta, linking each error to its control), and beside each
//   //    control its own error with aria-invalid and aria-describedby="<control id>-error":
//   <%~ include('form-errors.eta', { errors: it.errors }) %>
//   <% const bad = (f) => it.errors.find((e) => e.field === f); %>
//   <input id="tag-name" name="name" ...<% if (bad('name')) { %> aria-invalid="true"
//     aria-describedby="tag-name-error"<% } %>>
//   <% if (bad('name')) { %><p class="field-error" id="tag-name-error"><%= bad('name').message %></p><% } %>
//
// Each control has at most one error (the problems of one field are joined), so `find` is
// enough. A FormField's `id` is the control's id (the summary links to it); it defaults to
// the field's name.
import type { ErrorObject } from 'ajv';
import type { Static, TSchema } from 'typebox';
import { compileFormValidator } from '../../http/validation.ts';

/** One refused field of a form: the control's name, its id, and what is wrong in words. */
export interface FieldError {
  /** The form control's `name`. */
  field: string;
  /** The form control's `id`, which the summary links to. */
  id: string;
  /** "Warm-up search terms: at most 5 (you entered 6)". */
  message: string;
}

/** How a form shows one value of what it stands for. */
export interface FormField {
  /** The control's label as the form shows it ("Warm-up search terms"). */
  label: string;
  /** The control's `name` (default: the last part of the value's path). */
  field?: string;
  /** The control's `id` (default: the field's name). */
  id?: string;
  /** What one entry of a list value is called: "term" gives "term 3" (default "entry"). */
  item?: string;
  /** The problem in this form's own words, by schema keyword, in place of the general one. */
  messages?: Partial<Record<string, string>>;
}

/**
 * The fields of a form, keyed by the dotted path of the value they stand for (`name`,
 * `warmup.searchTerms`), in the order the form shows them: the errors come in that order.
 * A string is the label alone.
 */
export type FormFields = Record<string, string | FormField>;

export type CheckedForm<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/**
 * An error of a form that no schema finds (a name taken, a refusal of the service). With an
 * empty field and id it is about the whole form: the summary lists it without a link.
 */
export function fieldError(field: string, message: string, id = field): FieldError {
  return { field, id, message };
}

const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, word: string) => `${count(n)} ${word}${n === 1 ? '' : 's'}`;
/** Characters as people count them (code points, as the API's rules do). */
const chars = (value: unknown) => (typeof value === 'string' ? [...value].length : 0);
const entries = (value: unknown) => (Array.isArray(value) ? value.length : 0);

const FORMATS: Record<string, string> = {
  uri: 'must be a web address starting with http:// or https://',
  url: 'must be a web address starting with http:// or https://',
  email: 'must be an email address, like name@example.com',
  'date-time': 'must be a date and time',
  date: 'must be a date',
  time: 'must be a time',
  uuid: 'must be an id',
};

const TYPES: Record<string, string> = {
  string: 'must be a single value',
  number: 'must be a number',
  integer: 'must be a whole number',
  boolean: 'must be yes or no',
  array: 'must be a list',
  object: 'is not in the expected form',
  null: 'must be empty',
};

/** Whether the error says the value is missing or empty: that is all a person needs to hear. */
function isMissing(e: ErrorObject): boolean {
  if (e.keyword === 'required') return true;
  // An empty text breaks whatever rule it breaks (a length, a format, a pattern) by being empty.
  if (e.data === '') return true;
  if (e.keyword === 'minItems') return entries(e.data) === 0;
  return false;
}

/** The general words of one broken rule, without the field's name. */
function problemOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
  const limit = Number(p.limit);
  switch (e.keyword) {
    case 'required':
      return 'required';
    case 'minLength':
      return `at least ${plural(limit, 'character')} (this has ${count(chars(e.data))})`;
    case 'maxLength':
      return `at most ${plural(limit, 'character')} (this has ${count(chars(e.data))})`;
    case 'minItems':
      return entries(e.data) === 0
        ? `at least ${count(limit)} (you entered none)`
        : `at least ${count(limit)} (you entered ${count(entries(e.data))})`;
    case 'maxItems':
      return `at most ${count(limit)} (you entered ${count(entries(e.data))})`;
    case 'minimum':
      return `at least ${count(limit)}`;
    case 'maximum':
      return `at most ${count(limit)}`;
    case 'exclusiveMinimum':
      return `more than ${count(limit)}`;
    case 'exclusiveMaximum':
      return `less than ${count(limit)}`;
    case 'pattern': {
      const custom = parent['x-pattern-message'];
      return typeof custom === 'string' ? custom : 'is not in the expected form';
    }
    case 'format':
      return FORMATS[String(p.format)] ?? `must be a valid ${String(p.format)}`;
    case 'enum': {
      const allowed = (p.allowedValues as unknown[]).map(String);
      return allowed.length <= 10
        ? `must be one of ${allowed.join(', ')}`
        : 'must be one of the listed options';
    }
    case 'const':
      return `must be ${String(p.allowedValue)}`;
    case 'type':
      return TYPES[String(p.type).split(',')[0] ?? ''] ?? 'is not in the expected form';
    case 'uniqueItems':
      return 'must not list the same entry twice';
    case 'anyOf':
    case 'oneOf': {
      const custom = parent['x-match-message'];
      return typeof custom === 'string' ? custom : 'is not in the expected form';
    }
    case 'additionalProperties':
      return 'is not a field of this form';
    default:
      return e.message ?? 'is not valid';
  }
}

/** The path (as segments) an error is about: the missing or unknown property included. */
function pathOf(e: ErrorObject): string[] {
  const p = e.params as Record<string, unknown>;
  const segments = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') segments.push(String(p.missingProperty));
  if (e.keyword === 'additionalProperties') segments.push(String(p.additionalProperty));
  return segments;
}

interface Placed {
  /** The field's key in the form's fields (or the path, for a field the form did not name). */
  key: string;
  order: number;
  field: FormField;
  /** The list entry (0-based) the error is about, if any. */
  entry: number | null;
}

/** Which of the form's fields an error path belongs to: the longest key it starts with. */
function place(segments: string[], fields: FormFields, keys: string[]): Placed {
  for (let n = segments.length; n > 0; n--) {
    const key = segments.slice(0, n).join('.');
    const i = keys.indexOf(key);
    if (i < 0) continue;
    const given = fields[key] as string | FormField;
    const rest = segments.slice(n);
    const entry = rest.length > 0 && /^\d+$/.test(rest[0] as string) ? Number(rest[0]) : null;
    return { key, order: i, field: typeof given === 'string' ? { label: given } : given, entry };
  }
  const key = segments.join('.') || '(form)';
  const name = segments[segments.length - 1] ?? 'form';
  return { key, order: keys.length, field: { label: name }, entry: null };
}

/**
 * Every error of a validator (compiled with `allErrors`, as formCheck does) as the form's
 * fields in plain words, in the form's order: one per control, the problems of a field
 * joined; a missing or empty field says only that it is required.
 */
export function fieldErrors(errors: readonly ErrorObject[], fields: FormFields): FieldError[] {
  const keys = Object.keys(fields);
  // Errors inside the branches of an anyOf/oneOf are told by the anyOf/oneOf itself.
  const branches = errors
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .map((e) => `${e.schemaPath}/`);
  const kept = errors.filter((e) => !branches.some((b) => e.schemaPath.startsWith(b)));

  interface Group {
    placed: Placed;
    missing: boolean;
    problems: { keyword: string; text: string }[];
  }
  const groups = new Map<string, Group>();
  for (const e of kept) {
    const placed = place(pathOf(e), fields, keys);
    const groupKey = `${placed.key}#${placed.entry ?? ''}`;
    let group = groups.get(groupKey);
    if (!group) {
      group = { placed, missing: false, problems: [] };
      groups.set(groupKey, group);
    }
    const missing = isMissing(e);
    if (group.missing && !missing) continue;
    if (missing && !group.missing) {
      group.missing = true;
      group.problems = [];
    }
    const own = placed.field.messages;
    const text =
      missing && e.data === '' ? (own?.required ?? 'required') : (own?.[e.keyword] ?? problemOf(e));
    if (!group.problems.some((p) => p.text === text))
      group.problems.push({ keyword: e.keyword, text });
  }

  // One control, one error: the entries of a list join their list's message.
  const byControl = new Map<string, FieldError>();
  const sorted = [...groups.values()].sort(
    (a, b) =>
      a.placed.order - b.placed.order ||
      a.placed.key.localeCompare(b.placed.key) ||
      (a.placed.entry ?? -1) - (b.placed.entry ?? -1),
  );
  for (const g of sorted) {
    const { field, entry, key } = g.placed;
    // A web address that breaks both its format and its http(s) pattern needs one sentence:
    // the pattern's, which says what is expected.
    const hasPattern = g.problems.some((p) => p.keyword === 'pattern');
    const words = g.problems
      .filter((p) => !(hasPattern && p.keyword === 'format'))
      .map((p) => p.text)
      .join('; ');
    const name = field.field ?? key.split('.').pop() ?? key;
    const own = entry === null ? words : `${field.item ?? 'entry'} ${entry + 1}: ${words}`;
    const seen = byControl.get(name);
    if (seen) {
      seen.message += `; ${own}`;
      continue;
    }
    byControl.set(name, {
      field: name,
      id: field.id ?? name,
      message: entry === null ? `${field.label}: ${own}` : `${field.label}, ${own}`,
    });
  }
  return [...byControl.values()];
}

/**
 * The check of one form: what it stands for against `schema` (the API's own, so the form
 * accepts what the API accepts), with every error worded for the form's `fields`.
 */
export function formCheck<T extends TSchema>(
  schema: T,
  fields: FormFields,
): (value: unknown) => CheckedForm<Static<T>> {
  const validate = compileFormValidator(schema);
  return (value) => {
    if (validate(value)) return { ok: true, value: value as Static<T> };
    return { ok: false, errors: fieldErrors(validate.errors ?? [], fields) };
  };
}
