// Every non-2xx answer of the API becomes one error type, carrying the service's error
// envelope (DECISIONS 1) so callers branch on the stable `code`, not on message text.
import type { components } from './schema.ts';

/**
 * The codes the service documents, plus the SDK's own (`http_error`: an answer that was not
 * the envelope; `upload_failed`, `upload_timeout`: the upload helper). Typed open-ended, so
 * a code added by a newer service still type-checks.
 */
export type ErrorCode =
  | components['schemas']['ErrorEnvelope']['error']['code']
  | 'http_error'
  | 'upload_failed'
  | 'upload_timeout'
  | (string & {});

/** The error envelope's body: `{ error: { code, message, hint, requestId } }`. */
interface Envelope {
  error: { code: string; message: string; hint: string; requestId: string };
}

export class SlotlineError extends Error {
  override readonly name: string = 'SlotlineError';
  /** Stable machine-readable code, e.g. `post_not_found`. */
  readonly code: ErrorCode;
  /** The next step to take. */
  readonly hint: string;
  /** Quote this to support. */
  readonly requestId: string;
  /** The HTTP status of the answer. */
  readonly status: number;

  constructor(fields: {
    code: ErrorCode;
    message: string;
    hint: string;
    requestId: string;
    status: number;
  }) {
    super(fields.message);
    this.code = fields.code;
    this.hint = fields.hint;
    this.requestId = fields.requestId;
    this.status = fields.status;
  }

  /** Reads the envelope from an answer; a body that is not one (a proxy's page) still maps. */
  static async fromResponse(response: Response): Promise<SlotlineError> {
    const requestId = response.headers.get('x-request-id') ?? '';
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (isEnvelope(body)) return new SlotlineError({ ...body.error, status: response.status });
    return new SlotlineError({
      code: 'http_error',
      message: `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`,
      hint: 'The answer was not the Slotline error envelope; check baseUrl and any proxy.',
      requestId,
      status: response.status,
    });
  }
}

function isEnvelope(body: unknown): body is Envelope {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = body.error;
  return typeof error === 'object' && error !== null && 'code' in error && 'message' in error;
}

/**
 * An upload that the service marked `failed` while the upload helper waited for it: a
 * SlotlineError with code `upload_failed`, the upload's `error` as its message, and the
 * upload itself.
 */
export class UploadFailedError extends SlotlineError {
  override readonly name: string = 'UploadFailedError';
  readonly upload: components['schemas']['Upload'];

  constructor(upload: components['schemas']['Upload'], requestId = '') {
    super({
      code: 'upload_failed',
      message: upload.error ?? `upload ${upload.uploadId} failed`,
      hint: 'Check the file against the media rules, then upload it again.',
      requestId,
      status: 200,
    });
    this.upload = upload;
  }
}
