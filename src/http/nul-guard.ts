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

/** Whether a value is walked into: parsed JSON, queries and forms, never raw data. */
function isWalked(value: object): boolean {
  if (Array.isArray(value)) return true;
  // The query parser's objects have a bare prototype of their own; a raw byte stream (an
  // upload's body) or a Buffer is data.
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
}

const escapeKey = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * The JSON pointer of the first string (or key) holding a NUL, or null when none does. A
 * loop over a stack of its own, not recursion: however deep a value nests (JSON bodies are
 * bounded, http/json-body.ts, but queries and forms come other ways), it cannot run out of
 * call stack. Values are visited in document order, a key before its value.
 */
export function findNul(value: unknown, pointer = ''): string | null {
  // Each entry: a value, its pointer, and whether its pointer ends in a key to check first.
  const stack: { value: unknown; at: string; key: string | null }[] = [
    { value, at: pointer, key: null },
  ];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (next.key !== null && next.key.includes(NUL)) return next.at;
    const v = next.value;
    if (typeof v === 'string') {
      if (v.includes(NUL)) return next.at || '/';
      continue;
    }
    if (v === null || typeof v !== 'object' || !isWalked(v)) continue;
    // Pushed last to first, so that they are taken first to last.
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ value: v[i], at: `${next.at}/${i}`, key: null });
      }
      continue;
    }
    const entries = Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      stack.push({ value: item, at: `${next.at}/${escapeKey(key)}`, key });
    }
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
