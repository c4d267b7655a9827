// Failures of the remote fetcher. `message` is written for the API caller and never
// contains anything the source sent (headers, body, Location) or what its name
// resolved to (reliability anchors 2.3 step 7: blind SSRF learns nothing from the
// answer); `detail` and `cause` carry that for the service log only.

export type RemoteFetchErrorCode =
  | 'invalid_source_url'
  | 'source_blocked'
  | 'too_many_redirects'
  | 'source_unreachable'
  | 'source_timeout'
  | 'source_http_error'
  | 'unsupported_content_encoding'
  | 'file_too_large';

export class RemoteFetchError extends Error {
  override readonly name = 'RemoteFetchError';
  /** The source's HTTP status, for `source_http_error`. */
  readonly upstreamStatus: number | undefined;
  /** For logs only: addresses, ranges, socket error codes. Never send to the caller. */
  readonly detail: string | undefined;

  constructor(
    readonly code: RemoteFetchErrorCode,
    message: string,
    options: { upstreamStatus?: number; detail?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.upstreamStatus = options.upstreamStatus;
    this.detail = options.detail;
  }
}

/**
 * Proposed answer of `POST /v2/uploads` (remote form) for each failure, kept inside
 * the statuses SPEC 4.1 declares for that operation (400, 413, 415, 422). Problems
 * with the URL the caller chose are `invalid_request` naming `/sourceUrl`
 * (DECISIONS 1); a source that cannot deliver the file is a 422 with its own code,
 * so a client can tell "fix your request" from "fix your server".
 * The table is typed so that a new failure code cannot be left unmapped.
 */
export const REMOTE_FETCH_API_ERRORS: Record<
  RemoteFetchErrorCode,
  {
    code: 'invalid_request' | 'file_too_large' | 'source_fetch_failed';
    status: 400 | 413 | 422;
  }
> = {
  invalid_source_url: { code: 'invalid_request', status: 400 },
  source_blocked: { code: 'invalid_request', status: 400 },
  too_many_redirects: { code: 'invalid_request', status: 400 },
  file_too_large: { code: 'file_too_large', status: 413 },
  source_unreachable: { code: 'source_fetch_failed', status: 422 },
  source_timeout: { code: 'source_fetch_failed', status: 422 },
  source_http_error: { code: 'source_fetch_failed', status: 422 },
  unsupported_content_encoding: { code: 'source_fetch_failed', status: 422 },
};
