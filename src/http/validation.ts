// Request validation: one Ajv for JSON bodies (no coercion, unknown keys are
// rejected, never stripped) and one for query, path and headers (strings are
// coerced to the declared types). Every failure becomes `invalid_request`
// with a message naming the field as a JSON pointer, worded by lib/schema-errors.ts
// (which services that list every problem of a body use too).
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { ApiError } from '../errors.ts';
import {
  bodyIssue,
  compileAllErrors,
  describeError,
  gotSuffix,
  makeAjv,
} from '../lib/schema-errors.ts';

const bodyAjv = makeAjv(false);
const paramsAjv = makeAjv(true);

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
 * the pages' forms show them all at once (pages/kit/form-errors.ts). The API keeps one error.
 */
export function compileFormValidator(schema: object): ValidateFunction {
  return compileAllErrors(schema);
}

/** A header name as people write it: `idempotency-key` -> `Idempotency-Key`. */
const headerName = (lower: string) => lower.replace(/(^|-)([a-z])/g, (m) => m.toUpperCase());

const PART_LABEL: Record<string, string> = {
  // A page's form (pages/kit/plugin.ts); the API's bodies are named by JSON pointer.
  form: 'form field',
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
};

/** Turns Fastify/Ajv validation errors into one `invalid_request` naming the field. */
export function validationError(errors: FastifySchemaValidationError[], context: string): ApiError {
  const first = errors[0] as ErrorObject | undefined;
  if (!first) return new ApiError('invalid_request', 'Request failed validation');
  const label = PART_LABEL[context];
  if (!label) {
    const { message, hint } = bodyIssue(first);
    return new ApiError('invalid_request', message, { hint });
  }
  const { field, requirement } = describeError(first);
  const bare = field.replace(/^\//, '') || context;
  const name = context === 'headers' && field ? headerName(bare) : bare;
  return new ApiError('invalid_request', `${label} ${name} ${requirement}${gotSuffix(first)}`, {
    hint: `Fix ${label} ${name}: it ${requirement}.`,
  });
}
