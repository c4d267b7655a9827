// How every JSON request body is read: the framework's own parser (empty bodies, syntax
// errors and prototype poisoning refused as before), behind one bound on nesting. Every
// walker of request values (the NUL check, schema validation, the dry run's copy, the
// idempotency fingerprint, MCP's re-sent arguments) then meets at most MAX_JSON_DEPTH
// levels, so none can run out of stack; and a body nested past it is refused after reading
// MAX_JSON_DEPTH + 1 brackets, before any parse, whatever its length.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';

/**
 * The deepest a JSON body may nest, counting each object and array as one level (`{}` is
 * one, `{"a":[1]}` two). The deepest real body, a carousel sent as an MCP tool call, nests
 * 8 (README "Behaviour worth knowing").
 */
export const MAX_JSON_DEPTH = 128;

const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether `text` opens more than `max` objects and arrays inside one another, brackets in
 * strings aside. One pass, no allocation, stopping at the first level past `max`; it does
 * not check the syntax (JSON.parse does, afterwards), so on text that is not JSON its
 * answer only decides which refusal is given.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}

export function tooDeep(): ApiError {
  return new ApiError(
    'invalid_request',
    `Request body nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays`,
    {
      hint: `Send a body whose objects and arrays nest at most ${MAX_JSON_DEPTH} levels deep; no field of this API needs more than a few.`,
    },
  );
}

/**
 * Replaces the app's JSON parser (before any route, so every plugin inherits it; a plugin
 * that replaces it again reads its own bodies).
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(tooDeep());
      return;
    }
    // Fastify's own parser answers through `done` and returns nothing.
    void parse(req, text, done);
  });
}
