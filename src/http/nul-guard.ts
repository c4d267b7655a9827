// NUL characters (U+0000) in request values. PostgreSQL cannot store them in text at
// all, SQLite can: so one check here, ahead of every route (the API, the worker API and
// the dashboard's forms), keeps both databases answering alike.
// - A path parameter is an id or a name to look up: one containing NUL names nothing
//   stored, so the NUL is replaced by U+FFFD and the route answers its own "not found",
//   exactly as for any other unknown id.
// - A query or body value is input: `invalid_request` naming the field.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';

const NUL = '\u0000';

/** The JSON pointer of the first string (or key) holding a NUL, or null when none does. */
export function findNul(value: unknown, pointer = ''): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? pointer || '/' : null;
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], `${pointer}/${i}`);
      if (found !== null) return found;
    }
    return null;
  }
  // Parsed JSON, queries and forms only (the query parser's objects have a bare prototype
  // of their own); a raw byte stream (an upload's body) or a Buffer is data.
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto !== Object.prototype && proto !== null && Object.getPrototypeOf(proto) !== null) {
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (key.includes(NUL)) return at;
    const found = findNul(item, at);
    if (found !== null) return found;
  }
  return null;
}

function refuse(field: string): ApiError {
  return new ApiError('invalid_request', `${field} must not contain NUL characters (U+0000)`, {
    hint: `Remove the NUL characters from ${field} and send the request again.`,
  });
}

/**
 * Query values checked by a signature before anything of them is read: a cursor holding a
 * NUL is a cursor that was not issued, `invalid_cursor` like any other (SPEC 8).
 */
const OPAQUE_QUERY = new Set(['cursor']);

/** The query parameter holding a NUL, or null; one pass, no copies (every request runs it). */
function nulInQuery(query: unknown): string | null {
  if (query === null || typeof query !== 'object') return null;
  const values = query as Record<string, unknown>;
  for (const key in values) {
    if (OPAQUE_QUERY.has(key)) continue;
    if (key.includes(NUL) || findNul(values[key]) !== null) return key;
  }
  return null;
}

function check(req: FastifyRequest): void {
  const params = req.params as Record<string, unknown> | null;
  if (params && typeof params === 'object') {
    for (const key in params) {
      const value = params[key];
      if (typeof value === 'string' && value.includes(NUL)) {
        params[key] = value.replaceAll(NUL, '\uFFFD');
      }
    }
  }
  const inQuery = nulInQuery(req.query);
  if (inQuery !== null) throw refuse(`query parameter ${inQuery}`);
  const inBody = req.body === undefined ? null : findNul(req.body);
  if (inBody !== null) throw refuse(inBody);
}

/**
 * A root `preValidation` hook: it runs after parsing and before any schema or handler. In
 * callback form, since it never waits: no promise per request.
 */
export function guardNul(
  req: FastifyRequest,
  _reply: FastifyReply,
  done: (err?: Error) => void,
): void {
  try {
    check(req);
  } catch (err) {
    done(err as Error);
    return;
  }
  done();
}
