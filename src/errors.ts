// The error catalog (SPEC 7, DECISIONS 1): every code the API can answer with,
// its HTTP status and a default hint telling the caller what to do next. No framework
// here: services, schemas and the HTTP layer all import it; http/errors.ts renders it.
// Beside it, the catalog of refusals a person meets on a page or at the CLI
// (lib/action-refused.ts).

export const ERROR_CATALOG = {
  invalid_request: { status: 400, hint: 'Fix the named field and send the request again.' },
  invalid_cursor: {
    status: 400,
    hint: 'Send nextCursor back unchanged with the same filters, or start again without a cursor.',
  },
  invalid_media_set: {
    status: 400,
    hint: 'Send one video, 1-10 images, or images used by slides.',
  },
  idempotency_key_mismatch: {
    status: 400,
    hint: 'Use a new Idempotency-Key for a different request body.',
  },
  unauthorized: {
    status: 401,
    hint: 'Send a valid, unrevoked key as "Authorization: Bearer <API_KEY>".',
  },
  insufficient_scope: {
    status: 403,
    hint: 'Use a key created with the named scope.',
  },
  invalid_signature: {
    status: 403,
    hint: 'Request a fresh signed URL; signed URLs expire and cannot be altered.',
  },
  account_limit_reached: {
    status: 403,
    hint: 'Remove an account or move the company to a plan with more account slots.',
  },
  account_not_found: {
    status: 404,
    hint: 'Check the accountId; list accounts with GET /v2/accounts.',
  },
  post_not_found: { status: 404, hint: 'Check the postId; list posts with GET /v2/posts.' },
  upload_not_found: { status: 404, hint: 'Check the uploadId returned by POST /v2/uploads.' },
  tag_not_found: { status: 404, hint: 'Check the tagId; list tags with GET /v2/content-tags.' },
  image_not_found: {
    status: 404,
    hint: 'Check folderId and imageId against GET /v2/workspace.',
  },
  task_not_found: {
    status: 404,
    hint: 'Check the taskId; list the open tasks of this worker with GET /worker/v1/tasks.',
  },
  webhook_not_found: {
    status: 404,
    hint: 'Check the webhookId; list endpoints with GET /v2/webhooks.',
  },
  event_not_found: {
    status: 404,
    hint: 'Check the eventId in the webhook-id header or the delivery log; events are kept 30 days.',
  },
  webhook_limit_reached: {
    status: 409,
    hint: 'Delete an endpoint you no longer use, or subscribe one endpoint to more event types.',
  },
  not_found: { status: 404, hint: 'Check the method and path against GET /v2/openapi.json.' },
  range_not_satisfiable: {
    status: 416,
    hint: 'Ask for bytes that start before the size in the Content-Range header, or send no Range.',
  },
  method_not_allowed: {
    status: 405,
    hint: 'Use one of the methods listed in the Allow header.',
  },
  upload_not_ready: {
    status: 409,
    hint: 'Wait until GET /v2/uploads/{uploadId} reports status "ready".',
  },
  media_not_ready: { status: 409, hint: 'Wait until the post media is ready, then queue again.' },
  duplicate_queue_item: {
    status: 409,
    hint: 'Leave out accounts the post is already queued for.',
  },
  post_not_editable: {
    status: 409,
    hint: 'Only contentGroupIds can change once a post is posting; create a new post instead.',
  },
  post_not_cancellable: {
    status: 409,
    hint: 'Items already released or posted cannot be cancelled; check the post status.',
  },
  post_already_published: {
    status: 409,
    hint: 'Create a new post to publish the media again.',
  },
  platformB_feed_posts_disabled: {
    status: 409,
    hint: 'Use platformBPostFormat "reel", or ask to have feed posts enabled for the company.',
  },
  tag_name_taken: { status: 409, hint: 'Choose another name or update the existing tag.' },
  account_exists: {
    status: 409,
    hint: 'This username is already connected on that platform; use the existing account.',
  },
  upload_already_completed: {
    status: 409,
    hint: 'The upload is already complete; read it with GET /v2/uploads/{uploadId}.',
  },
  upload_content_conflict: {
    status: 409,
    hint: 'The upload already has other bytes; complete it, or create a new upload with POST /v2/uploads to send a different file.',
  },
  upload_incomplete: {
    status: 409,
    hint: 'Send the file bytes to uploadUrl before completing the upload.',
  },
  idempotency_key_in_use: {
    status: 409,
    hint: 'A request with this Idempotency-Key is still running; retry in a moment.',
  },
  task_not_claimed: {
    status: 409,
    hint: 'Claim the task with POST /worker/v1/tasks/claim before reporting on it.',
  },
  task_already_reported: {
    status: 409,
    hint: 'The task already has a final outcome; read it with GET /worker/v1/tasks/{taskId}.',
  },
  task_not_posted: {
    status: 409,
    hint: 'Report the task as posted before sending analytics for it.',
  },
  request_timeout: {
    status: 408,
    hint: 'Send the whole request line, headers and body without pausing; retry on a new connection.',
  },
  file_too_large: {
    status: 413,
    hint: 'Send a smaller file: videos may be at most 200 MB (209,715,200 bytes), images 50 MiB.',
  },
  request_too_large: { status: 413, hint: 'Send a smaller JSON body.' },
  unsupported_media_type: {
    status: 415,
    hint: 'Send a supported type: application/json bodies; MP4/MOV video, PNG/JPEG/WebP/HEIC images.',
  },
  source_fetch_failed: {
    status: 422,
    hint: 'Make sourceUrl answer 200 with the file, quickly and without compression, or use a signed upload.',
  },
  invalid_media_specs: {
    status: 422,
    hint: 'Re-encode the video: H.264 or HEVC, AAC audio, at most 3 minutes, 2160x3840 and 60 fps.',
  },
  rate_limited: {
    status: 429,
    hint: 'A daily cap is reached; retry after the Retry-After seconds (next UTC midnight).',
  },
  quota_exceeded: {
    status: 429,
    hint: 'A plan limit is reached; check GET /v2/usage or upgrade the plan.',
  },
  internal_error: {
    status: 500,
    hint: 'Retry later; if it persists, contact support quoting the requestId.',
  },
  service_unavailable: {
    status: 503,
    hint: 'The service is briefly unavailable; retry with backoff.',
  },
} as const satisfies Record<string, { status: number; hint: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export interface ApiErrorOptions {
  hint?: string;
  headers?: Record<string, string>;
  /**
   * Only for "not found" codes naming an id inside a request body, which answer
   * 400 rather than 404 (DECISIONS 1).
   */
  inBody?: boolean;
  /**
   * The JSON pointer of the body field the error is about (`/media/2`), when there is one:
   * checks that list every problem of a request report it beside the message.
   */
  field?: string;
}

/** The one error type routes and services throw; rendered as the SPEC 7 envelope. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly hint: string;
  readonly headers: Record<string, string>;
  readonly field: string | undefined;

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = options.inBody ? 400 : ERROR_CATALOG[code].status;
    this.hint = options.hint ?? ERROR_CATALOG[code].hint;
    this.headers = options.headers ?? {};
    this.field = options.field;
  }
}

/** Codes grouped by HTTP status, for the OpenAPI document. */
export function codesByStatus(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const out = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CATALOG[code].status;
    out.set(status, [...(out.get(status) ?? []), code]);
  }
  return out;
}

/**
 * Why a page (or the CLI) refused a person's action, each reason with the HTTP status a page
 * answers it with: `invalid` input, `signed_out` for a page that needs a session,
 * `forbidden` for a role or a form token that does not allow it, `not_found` for an id
 * naming nothing (or another company's), `conflict` for a state that forbids it, `self` for
 * an admin acting on itself, `last_admin` for a company that would have no enabled admin
 * left, `too_large` and `unsupported_type` for an upload the page cannot take.
 */
export const REFUSAL_CATALOG = {
  invalid: 400,
  signed_out: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  self: 409,
  last_admin: 409,
  too_large: 413,
  unsupported_type: 415,
} as const satisfies Record<string, number>;

export type RefusalReason = keyof typeof REFUSAL_CATALOG;
