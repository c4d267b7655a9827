// Rendering of errors (SPEC 7): the envelope, and the framework's own errors (bad JSON,
// wrong content type, oversize bodies, validation) mapped onto the catalog.
import type { FastifyError } from 'fastify';
import { ApiError, type ErrorCode } from '../errors.ts';
import { validationError } from './validation.ts';

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; hint: string; requestId: string };
}

export function envelope(err: ApiError, requestId: string): ErrorEnvelope {
  return { error: { code: err.code, message: err.message, hint: err.hint, requestId } };
}

/** Maps framework errors (bad JSON, wrong content type, oversize bodies) onto the catalog. */
export function toApiError(err: FastifyError, bodyLimit: number): ApiError | null {
  if (err instanceof ApiError) return err;
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
      return new ApiError('invalid_request', `Request body is not valid JSON: ${err.message}`, {
        hint: 'Send a well-formed JSON document.',
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
