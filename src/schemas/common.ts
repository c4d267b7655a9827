// Shared TypeBox pieces. Schemas with an $id are registered once and become
// OpenAPI components; `ref()` points at them with the right static type.
import { Type, type Static, type TSchema } from 'typebox';
import { ERROR_CATALOG, codesByStatus, type ErrorCode } from '../errors.ts';

/** An error code of the catalog (src/errors.ts), as a string enum. */
export function ErrorCodeSchema(description: string) {
  return Type.Unsafe<ErrorCode>({ type: 'string', enum: Object.keys(ERROR_CATALOG), description });
}

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object(
      {
        code: ErrorCodeSchema('Stable machine-readable error code; new codes may be added'),
        message: Type.String({ description: 'What went wrong, naming the field' }),
        hint: Type.String({ description: 'The next step to take' }),
        requestId: Type.String({ description: 'Quote this to support' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    $id: 'ErrorEnvelope',
    additionalProperties: false,
    description: 'The error envelope of every unsuccessful response',
  },
);

export function ref<T extends TSchema & { $id?: string }>(schema: T) {
  return Type.Unsafe<Static<T>>({ $ref: `${schema.$id as string}#` });
}

/** A string enum as one `enum` keyword (not an anyOf of literals), typed as its union. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * A value or null. Primitive schemas become `type: [T, "null"]` rather than an
 * anyOf, which the response serializer would otherwise resolve by validating
 * every value against each branch.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const type = (schema as { type?: unknown }).type;
  if (typeof type === 'string' && type !== 'object' && type !== 'array') {
    return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
  }
  return Type.Union([schema, Type.Null()]);
}

export const DateTime = Type.String({ format: 'date-time' });

/** An id in a request: 1-200 characters. */
export const Id = Type.String({ minLength: 1, maxLength: 200 });

/**
 * An http or https URL a client can fetch. RFC 3986 (format uri) allows an empty host, which
 * no http client can use, so the host must start right after the scheme.
 */
export function HttpUrl(description?: string) {
  return Type.String({
    format: 'uri',
    maxLength: 2048,
    pattern: '^https?://[^/?#@:]',
    'x-pattern-message': 'must be an http or https URL',
    ...(description === undefined ? {} : { description }),
  });
}

/** Error responses of an operation, one entry per status, naming every code it can return. */
export function errorResponses(
  codes: readonly ErrorCode[],
  /** "Not found" codes that can also name an id in the body, answered with 400. */
  inBody: readonly ErrorCode[] = [],
): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  const grouped = codesByStatus([...new Set(codes)]);
  if (inBody.length) grouped.set(400, [...new Set([...(grouped.get(400) ?? []), ...inBody])]);
  for (const [status, list] of grouped) {
    out[status] = Type.Unsafe<Static<typeof ErrorEnvelope>>({
      $ref: 'ErrorEnvelope#',
      description: `Error codes: ${list.map((c) => `\`${c}\``).join(', ')}`,
      'x-error-codes': list,
    });
  }
  return out;
}

/** The codes every authenticated operation can answer with. */
export const AUTH_ERRORS: ErrorCode[] = [
  'unauthorized',
  'insufficient_scope',
  'rate_limited',
  'internal_error',
];

export const SHARED_SCHEMAS = [ErrorEnvelope];

export function statusOf(code: ErrorCode): number {
  return ERROR_CATALOG[code].status;
}
