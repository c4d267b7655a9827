// Request validation: one Ajv for JSON bodies (no coercion, unknown keys are
// rejected, never stripped) and one for query, path and headers (strings are
// coerced to the declared types). Every failure becomes `invalid_request`
// with a message naming the field as a JSON pointer.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { ApiError } from '../errors.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerce: boolean, allErrors = false): Ajv {
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

const bodyAjv = makeAjv(false);
const paramsAjv = makeAjv(true);
/** The pages' forms: the body rules, reporting every error (http/form-errors.ts). */
const formAjv = makeAjv(false, true);

/**
 * Header names are case-insensitive and Node hands them over in lower case; schemas
 * name them as clients write them (`Idempotency-Key`), so they are compared in lower case.
 */
function lowerCaseHeaders(schema: object): object {
  const s = schema as { properties?: Record<string, unknown>; required?: string[] };
  return {
    ...schema,
    ...(s.properties
      ? {
          properties: Object.fromEntries(
            Object.entries(s.properties).map(([k, v]) => [k.toLowerCase(), v]),
          ),
        }
      : {}),
    ...(s.required ? { required: s.required.map((k) => k.toLowerCase()) } : {}),
  };
}

export function compileValidator(schema: object, httpPart: string | undefined): ValidateFunction {
  if (httpPart === 'headers') return paramsAjv.compile(lowerCaseHeaders(schema));
  return (httpPart === 'body' ? bodyAjv : paramsAjv).compile(schema);
}

/**
 * A validator with the rules of JSON bodies that reports every error, not only the first:
 * the pages' forms show them all at once (http/form-errors.ts). The API keeps one error.
 */
export function compileFormValidator(schema: object): ValidateFunction {
  return formAjv.compile(schema);
}

/** A header name as people write it: `idempotency-key` -> `Idempotency-Key`. */
const headerName = (lower: string) => lower.replace(/(^|-)([a-z])/g, (m) => m.toUpperCase());

const PART_LABEL: Record<string, string> = {
  // A page's form (http/page-plugin.ts); the API's bodies are named by JSON pointer.
  form: 'form field',
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
};

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    const chars = [...value].length;
    return chars > 40 ? `a string of ${chars} characters` : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `an array of ${plural(value.length, 'item')}`;
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return String(value);
}

interface Described {
  field: string;
  requirement: string;
}

function describeError(e: ErrorObject): Described {
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

function article(type: string): string {
  const t = type.split(',')[0] ?? type;
  if (t === 'integer' || t === 'object' || t === 'array') return `an ${t}`;
  if (t === 'null') return 'null';
  return `a ${t}`;
}

/** Turns Fastify/Ajv validation errors into one `invalid_request` naming the field. */
export function validationError(errors: FastifySchemaValidationError[], context: string): ApiError {
  const first = errors[0] as ErrorObject | undefined;
  if (!first) return new ApiError('invalid_request', 'Request failed validation');
  const { field, requirement } = describeError(first);
  const got =
    first.keyword === 'required' || first.keyword === 'additionalProperties'
      ? ''
      : ` (got ${describeValue(first.data)})`;
  const label = PART_LABEL[context];
  if (label) {
    const bare = field.replace(/^\//, '') || context;
    const name = context === 'headers' && field ? headerName(bare) : bare;
    return new ApiError('invalid_request', `${label} ${name} ${requirement}${got}`, {
      hint: `Fix ${label} ${name}: it ${requirement}.`,
    });
  }
  const pointer = field || '/';
  const hint =
    first.keyword === 'additionalProperties'
      ? `Remove ${pointer}; see the request schema in GET /v2/openapi.json for the allowed fields.`
      : first.keyword === 'required'
        ? `Add ${pointer} to the request body.`
        : `Fix ${pointer}: it ${requirement}.`;
  return new ApiError('invalid_request', `${pointer} ${requirement}${got}`, { hint });
}
