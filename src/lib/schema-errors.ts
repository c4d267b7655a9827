// Validation of JSON values against the API's schemas, and the wording of what fails: one
// Ajv setup and one way of naming a field (a JSON pointer) and its rule, shared by the HTTP
// layer (http/validation.ts, one error per request) and by services that report every
// problem of a body at once (the dry run of a post create). Pure: values in, words out.
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * The API's Ajv: unknown keys are rejected, never stripped; defaults are filled in; strings
 * are coerced to the declared types only with `coerce` (query, path and headers).
 */
export function makeAjv(coerce: boolean, allErrors = false): Ajv {
  const ajv = new Ajv({
    allErrors,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
    verbose: true,
  });
  addFormats(ajv);
  return ajv;
}

/** The rules of JSON bodies, reporting every error rather than the first. */
const allErrorsAjv = makeAjv(false, true);

/** A validator with the rules of JSON bodies that reports every error. */
export function compileAllErrors(schema: object) {
  return allErrorsAjv.compile(schema);
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The value a rule refused, in a few words: `"abc"`, `an array of 3 items`, `80`. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    const chars = [...value].length;
    return chars > 40 ? `a string of ${chars} characters` : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `an array of ${plural(value.length, 'item')}`;
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return String(value);
}

export interface Described {
  /** The JSON pointer of the field ("" for the whole value). */
  field: string;
  /** What the field must be: "must be <= 72". */
  requirement: string;
}

function article(type: string): string {
  const t = type.split(',')[0] ?? type;
  if (t === 'integer' || t === 'object' || t === 'array') return `an ${t}`;
  if (t === 'null') return 'null';
  return `a ${t}`;
}

/** One Ajv error (from a `verbose` Ajv) as the field it is about and the rule it broke. */
export function describeError(e: ErrorObject): Described {
  const path = e.instancePath;
  const p = e.params as Record<string, unknown>;
  const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { field: `${path}/${String(p.missingProperty)}`, requirement: 'is required' };
    case 'additionalProperties':
      return {
        field: `${path}/${String(p.additionalProperty)}`,
        requirement: 'is not an allowed field',
      };
    case 'maxLength':
      return {
        field: path,
        requirement: `must be at most ${plural(Number(p.limit), 'character')}`,
      };
    case 'minLength':
      return {
        field: path,
        requirement:
          Number(p.limit) === 1
            ? 'must not be empty'
            : `must be at least ${plural(Number(p.limit), 'character')}`,
      };
    case 'maxItems':
      return { field: path, requirement: `must have at most ${plural(Number(p.limit), 'item')}` };
    case 'minItems':
      return { field: path, requirement: `must have at least ${plural(Number(p.limit), 'item')}` };
    case 'maximum':
    case 'minimum':
    case 'exclusiveMaximum':
    case 'exclusiveMinimum':
      return { field: path, requirement: `must be ${String(p.comparison)} ${String(p.limit)}` };
    case 'enum':
      return {
        field: path,
        requirement: `must be one of: ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'const':
      return { field: path, requirement: `must be ${JSON.stringify(p.allowedValue)}` };
    case 'type':
      return { field: path, requirement: `must be ${article(String(p.type))}` };
    case 'format':
      return { field: path, requirement: `must be a valid ${String(p.format)}` };
    case 'pattern': {
      const custom = parent['x-pattern-message'];
      return {
        field: path,
        requirement: typeof custom === 'string' ? custom : `must match ${String(p.pattern)}`,
      };
    }
    case 'uniqueItems':
      return { field: path, requirement: 'must not contain duplicates' };
    case 'anyOf':
    case 'oneOf': {
      const custom = parent['x-match-message'];
      return {
        field: path,
        requirement: typeof custom === 'string' ? custom : 'does not match any allowed form',
      };
    }
    default:
      return { field: path, requirement: e.message ?? 'is invalid' };
  }
}

/** What was sent in place of a valid value, for the message: ` (got 80)`, or nothing. */
export function gotSuffix(e: ErrorObject): string {
  return e.keyword === 'required' || e.keyword === 'additionalProperties'
    ? ''
    : ` (got ${describeValue(e.data)})`;
}

/** One failed rule of a JSON body, worded as the API words it. */
export interface BodyIssue {
  /** The field's JSON pointer (`/` for the whole body). */
  pointer: string;
  /** `/slides/0/textElements/2/style/fontSize must be <= 72 (got 80)`. */
  message: string;
  /** The next step: `Fix /slides/0/...: it must be <= 72.` */
  hint: string;
}

/** A body's Ajv error as the API's `invalid_request` words it, naming the field. */
export function bodyIssue(e: ErrorObject): BodyIssue {
  const { field, requirement } = describeError(e);
  const pointer = field || '/';
  const hint =
    e.keyword === 'additionalProperties'
      ? `Remove ${pointer}; see the request schema in GET /v2/openapi.json for the allowed fields.`
      : e.keyword === 'required'
        ? `Add ${pointer} to the request body.`
        : `Fix ${pointer}: it ${requirement}.`;
  return { pointer, message: `${pointer} ${requirement}${gotSuffix(e)}`, hint };
}
