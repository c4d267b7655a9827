// Rendering of errors (SPEC 7): the envelope, the framework's own errors (bad JSON,
// wrong content type, oversize bodies, validation) mapped onto the catalog, unknown
// errors masked, and the answers for unknown routes (404) and methods (405).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { isUnstorableText } from '../db/errors.ts';
import { ApiError, type ErrorCode } from '../errors.ts';
import { validationError } from './validation.ts';

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; hint: string; requestId: string };
}

export function envelope(err: ApiError, requestId: string): ErrorEnvelope {
  return { error: { code: err.code, message: err.message, hint: err.hint, requestId } };
}

/** The answer when the database refuses a text value (a NUL character) as unstorable. */
export function unstorableText(): ApiError {
  return new ApiError(
    'invalid_request',
    'A text value contains a character that cannot be stored',
    {
      hint: 'Remove NUL characters (U+0000) from the text fields and send the request again.',
    },
  );
}

/** Maps framework errors (bad JSON, wrong content type, oversize bodies) onto the catalog. */
export function toApiError(err: FastifyError, bodyLimit: number): ApiError | null {
  if (err instanceof ApiError) return err;
  // A backstop behind nul-guard.ts: whatever way a value the database cannot store got in.
  if (isUnstorableText(err)) return unstorableText();
  if (err.validation) return validationError(err.validation, err.validationContext ?? 'body');
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported_media_type', 'Content-Type must be application/json', {
        hint: 'Send the body as JSON with "Content-Type: application/json".',
      });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('request_too_large', `Request body exceeds ${bodyLimit} bytes`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(
        'invalid_request',
        'Request body is empty but Content-Type is application/json',
        {
          hint: 'Send a JSON body, or leave out the Content-Type header.',
        },
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('invalid_request', 'Request body is not valid JSON', {
        hint: 'Send one well-formed JSON document: check its quotes, commas and brackets, and that nothing follows it.',
      });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('invalid_request', 'Content-Length does not match the body', {
        hint: 'Send a Content-Length equal to the body size.',
      });
  }
  if (err instanceof SyntaxError || err.statusCode === 400) {
    return new ApiError('invalid_request', `Request is malformed: ${err.message}`);
  }
  if (err.statusCode === 413) return new ApiError('request_too_large', 'Request body is too large');
  if (err.statusCode === 415) {
    return new ApiError('unsupported_media_type', 'Content-Type is not supported here');
  }
  return null;
}

/**
 * The router's own refusals, before any route or hook runs: a path whose percent-encoding
 * does not decode (`/v2/posts/%ZZ`) or a path parameter past the router's length limit.
 * Both answer in the envelope with the request id, like every other error.
 */
export function frameworkErrorHandler(
  err: FastifyError,
  req: FastifyRequest,
  reply: FastifyReply,
): void {
  const path = req.raw.url?.split('?')[0] ?? '/';
  const refusal =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ApiError('invalid_request', `A path segment of ${shown(path)} is too long`, {
          hint: 'Check the id in the path: ids are at most 200 characters.',
        })
      : err.code === 'FST_ERR_BAD_URL'
        ? new ApiError(
            'invalid_request',
            `The path ${shown(path)} has malformed percent-encoding`,
            {
              hint: 'Percent-encode path segments as UTF-8 (encodeURIComponent): "%" followed by two hex digits.',
            },
          )
        : null;
  if (!refusal) req.log.error({ err }, 'router error');
  const apiErr = refusal ?? unexpected();
  void reply.status(apiErr.status).header('x-request-id', req.id).send(envelope(apiErr, req.id));
}

/** The masked answer to anything unexpected: its cause is logged, never sent. */
function unexpected(): ApiError {
  return new ApiError('internal_error', 'An unexpected error occurred');
}

/** A path as it may be quoted back: bounded, so a long one does not fill the message. */
function shown(path: string): string {
  return JSON.stringify(path.length > 120 ? `${path.slice(0, 117)}...` : path);
}

/** Where a browser asking for `GET /` is sent: the company dashboard. */
export const BROWSER_HOME = '/dashboard/';

/**
 * Whether an Accept header ranks HTML above JSON, as a browser's navigation does (HTML
 * first, any type at q=0.8). No header, any type alone, JSON, or HTML and JSON ranked alike
 * answer false.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  let html = 0;
  let json = -1;
  let any = 0;
  for (const part of accept.slice(0, 1000).split(',')) {
    const [range = '', ...params] = part.toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const parsed = qParam ? Number(qParam.slice(2)) : 1;
    const q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 1;
    const type = range.trim();
    if (type === 'text/html' || type === 'application/xhtml+xml') html = Math.max(html, q);
    else if (type === 'application/json' || type === 'application/*') json = Math.max(json, q);
    else if (type === '*/*') any = Math.max(any, q);
  }
  return html > 0 && html > (json >= 0 ? json : any);
}

/**
 * Installs the error handler and the not-found handler on the app (before any route is
 * registered, so every route is seen): an unknown method on a known path answers 405 with
 * `Allow`, an unknown path 404 (but `GET /` from a browser is sent to the dashboard),
 * anything unexpected a masked 500 logged with its request id.
 */
export function installErrorHandlers(app: FastifyInstance, bodyLimit: number): void {
  // Routes seen at registration, so an unknown method on a known path answers 405.
  const known = FindMyWay();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) {
      if (m !== 'HEAD') known.on(m as HTTPMethod, route.url, () => {}, { url: route.url });
    }
  });

  app.setErrorHandler(async (err: FastifyError, req, reply) => {
    const apiErr = toApiError(err, bodyLimit);
    if (apiErr) {
      if (apiErr.status >= 500) req.log.error({ err }, 'request failed');
      return reply.status(apiErr.status).headers(apiErr.headers).send(envelope(apiErr, req.id));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(envelope(unexpected(), req.id));
  });

  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    // A browser opening the service's own address lands on the dashboard; an API client
    // (no Accept, */*, JSON) gets the envelope below like at any other unknown address.
    if (path === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
      if (prefersHtml(req.headers.accept)) return reply.redirect(BROWSER_HOME, 302);
    }
    const allowed: string[] = [];
    for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as HTTPMethod[]) {
      if (m !== req.method && known.find(m, path)) allowed.push(m);
    }
    if (allowed.length > 0) {
      const err = new ApiError('method_not_allowed', `${req.method} is not allowed on ${path}`, {
        hint: `Use ${allowed.join(' or ')}.`,
      });
      return reply.status(405).header('allow', allowed.join(', ')).send(envelope(err, req.id));
    }
    const err = new ApiError('not_found', `No route ${req.method} ${path}`);
    return reply.status(404).send(envelope(err, req.id));
  });
}
