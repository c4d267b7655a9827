// How server-rendered pages read what a browser sends. Each route's TypeBox schemas give
// its query and form the shape browsers send them in; a query's values are checked there
// with the API's own schema pieces (a refused one is an error page), while a form's
// fields, all optional strings, are checked by the handler against the API's pieces, so
// that a refusal shows next to its field in the form, worded for people. Form schemas
// leave other fields allowed: every form carries `_csrf`, and a submit button may send its
// name.
import type { FastifyError, FastifyRequest } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import { compileValidator } from '../../http/validation.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

/** A field sent once or repeated (a group of checkboxes): one string or several. */
export const Repeated = Type.Union([Type.String(), Type.Array(Type.String())]);

/** Every value of a field that may be repeated, in the order sent. */
export function valuesOf(field: string | string[] | undefined): string[] {
  if (field === undefined) return [];
  return Array.isArray(field) ? field : [field];
}

/** The first rule a value breaks: the top-level field it is in, and which rule. */
export interface Broken {
  field: string;
  /** The schema keyword: `minLength`, `maxLength`, `enum`, `minItems`, ... */
  keyword: string;
  /** The bound a length or count rule sets, to quote it rather than restate it. */
  limit: number | null;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; broken: Broken };

/**
 * A check against `schema` with the API's own body validator, so a form accepts what the
 * API route accepts, counted the same way (characters, not UTF-16 units) and with the
 * same formats.
 */
export function checkWith<T extends TSchema>(schema: T): (value: unknown) => Checked<Static<T>> {
  const validate = compileValidator(schema, 'body');
  return (value) => {
    if (validate(value)) return { ok: true, value: value as Static<T> };
    const first = validate.errors?.[0];
    const params: Record<string, unknown> = first?.params ?? {};
    const top = (first?.instancePath ?? '').split('/')[1] ?? '';
    const missing = typeof params.missingProperty === 'string' ? params.missingProperty : '';
    return {
      ok: false,
      broken: {
        field: top || missing,
        keyword: first?.keyword ?? '',
        limit: typeof params.limit === 'number' ? params.limit : null,
      },
    };
  };
}

/**
 * Before validation, what browsers send is read as the schemas mean it. A GET form sends
 * every field, filled or not (`?status=&tag=untagged`): an empty one is no filter, as an
 * absent optional parameter is. A request carrying its CSRF token in a header may send no
 * body at all: that is an empty form.
 */
export async function readAsBrowsersSend(req: FastifyRequest): Promise<void> {
  const query = req.query;
  if (typeof query === 'object' && query !== null) {
    for (const [name, value] of Object.entries(query)) {
      if (value === '') Reflect.deleteProperty(query, name);
    }
  }
  if (req.body === undefined && req.method === 'POST') req.body = {};
}

/**
 * A multipart body the parser could not read to its end: cut short, without its boundary,
 * or with a part header broken off. The multipart parser (busboy) says so with a plain
 * error and no status, which would read as the service's fault (500); it is the sender's,
 * and the page answers it as a form that did not arrive whole (400).
 */
export function unreadableMultipart(req: FastifyRequest, err: FastifyError): boolean {
  if (err.statusCode !== undefined && err.statusCode < 500) return false;
  if (err instanceof ActionRefused) return false;
  return (
    req.isMultipart() &&
    /multipart|end of form|part header|terminated early|boundary/i.test(err.message)
  );
}
