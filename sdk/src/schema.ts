// Generated from docs/openapi.json by `npm run sdk:generate`: do not edit.
export interface paths {
  '/v2/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The machine-readable description of this API */
    get: operations['getOpenApi'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/accounts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List publishing accounts
     * @description Requires scope `accounts:read`.
     */
    get: operations['listAccounts'];
    put?: never;
    /**
     * Create a publishing account
     * @description New accounts start in status `pending_setup`: nothing is released to them until the worker operating them reports them `warming_up` or `active`. They take the company’s default worker timezone. Daily account creations count against the plan’s cap (`rate_limited`); the plan’s account slots are checked too (`account_limit_reached`).
     *
     *     Requires scope `accounts:write`.
     */
    post: operations['createAccount'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/accounts/{accountId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a publishing account
     * @description Requires scope `accounts:read`.
     */
    get: operations['getAccount'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/accounts/{accountId}/pause': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Pause a publishing account
     * @description Stops releases to the account: its `queued` items stay queued, in their order, until it is resumed (items already released stay with the worker). The account’s worker may go on reporting its status meanwhile; that is kept and takes effect on resume. Pausing a paused account changes nothing and answers 200 with the account. No request body.
     *
     *     Requires scope `accounts:write`.
     */
    post: operations['pauseAccount'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/accounts/{accountId}/resume': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Resume a paused publishing account
     * @description Ends a pause: the account returns to the status its worker last reported (`pending_setup` if it never reported one) and releases resume at its next window if that status is `warming_up` or `active`. Resuming an account that is not paused changes nothing and answers 200 with the account. No request body.
     *
     *     Requires scope `accounts:write`.
     */
    post: operations['resumeAccount'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/accounts/{accountId}/status-history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the status changes of an account
     * @description Every change of the account’s status, newest first, from its creation (`source: system`): worker reports, pauses and resumes, each with its time. A report made while paused appears with `status: paused` and the reported status in `reportedStatus`. `limit` is 1-100 (default 25).
     *
     *     Requires scope `accounts:read`.
     */
    get: operations['listAccountStatusHistory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/content-tags': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List content tags, active and archived
     * @description Requires scope `posts:read`.
     */
    get: operations['listContentTags'];
    put?: never;
    /**
     * Create a content tag
     * @description Requires scope `posts:write`.
     */
    post: operations['createContentTag'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/content-tags/{tagId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete a content tag and remove it from every post
     * @description Requires scope `posts:write`.
     */
    delete: operations['deleteContentTag'];
    options?: never;
    head?: never;
    /**
     * Rename, recolor, archive or restore a content tag
     * @description An archived tag keeps its existing attribution and analytics but cannot be assigned to posts; `archived: false` restores it.
     *
     *     Requires scope `posts:write`.
     */
    patch: operations['updateContentTag'];
    trace?: never;
  };
  '/v2/schedule': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read the company default posting schedule
     * @description Account overrides take precedence over this default.
     *
     *     Requires scope `accounts:read`.
     */
    get: operations['getCompanySchedule'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Replace the company default posting schedule
     * @description Account overrides are preserved. `schedule: null` restores the global rules (08:00, 11:00, 14:00, 17:00). Changes apply to future releases only.
     *
     *     Requires scope `accounts:write`.
     */
    patch: operations['updateCompanySchedule'];
    trace?: never;
  };
  '/v2/accounts/{accountId}/schedule': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read an account’s schedule override and effective schedule
     * @description Requires scope `accounts:read`.
     */
    get: operations['getAccountSchedule'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Replace an account’s schedule override
     * @description The override wins over the company default even if the default changes later. `schedule: null` clears it, so the account inherits the company default or the global rules; it does not pause posting.
     *
     *     Requires scope `accounts:write`.
     */
    patch: operations['updateAccountSchedule'];
    trace?: never;
  };
  '/v2/workspace': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read the company, its accounts, image folders and packs
     * @description Requires scope `workspace:read`.
     */
    get: operations['getWorkspace'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/workspace/media-urls': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Mint short-lived download URLs for company images
     * @description Each item is resolved through the company’s own folders; an image of another folder or company is `image_not_found`. URLs expire after `expiresInSeconds` (default 900).
     *
     *     Requires scope `media:read`.
     */
    post: operations['createMediaUrls'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/media/images/{imageId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download an image through a signed URL
     * @description The URL comes from POST /v2/workspace/media-urls; no API key is sent.
     */
    get: operations['downloadImage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/usage': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Plan limits and today’s usage
     * @description Not counted against the daily API request cap.
     *
     *     Requires scope `usage:read`.
     */
    get: operations['getUsage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/uploads': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create an upload (signed or remote)
     * @description Counts against the daily uploads cap. Remote uploads are fetched and validated before the response; they answer `status: ready` or the validation error.
     *
     *     Requires scope `posts:write`.
     */
    post: operations['createUpload'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/uploads/{uploadId}/bytes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Send the file bytes to a signed upload URL
     * @description The `uploadUrl` from POST /v2/uploads, called with no API key. `Content-Type` must equal the declared `contentType` and the body must be exactly `sizeBytes` long; anything else stores nothing. The first complete body becomes the upload’s content: the same bytes again are accepted as a retry, other bytes are refused with `upload_content_conflict`, and bytes arriving after `complete` with `upload_already_completed`. The URL expires after an hour.
     */
    put: operations['uploadBytes'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/uploads/{uploadId}/complete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Validate the uploaded file and mark it ready
     * @description Checks container (MP4/MOV), codecs (H.264/HEVC, AAC), size, duration, dimensions and frame rate of videos and the real content of images. A failure marks the upload `failed` with `error`.
     *
     *     Requires scope `posts:write`.
     */
    post: operations['completeUpload'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/uploads/{uploadId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an upload
     * @description Requires scope `posts:read` or `posts:write`.
     */
    get: operations['getUpload'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/media/uploads/{uploadId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download an uploaded file
     * @description A signed URL from an upload’s `url` or `thumbnailUrl`; no API key.
     */
    get: operations['downloadUpload'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/media/uploads/{uploadId}/thumbnail': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download an upload’s thumbnail
     * @description A signed URL from an upload’s `url` or `thumbnailUrl`; no API key.
     */
    get: operations['downloadUploadThumbnail'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/posts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List posts, newest first
     * @description Filters combine. `accountId`: posts with an item for that account; an account that does not exist or belongs to another company answers 404 `account_not_found`, not an empty page. `status`: the post status. `since`: posts created at or after it. `contentGroupId`: posts attributed to that tag or template group, or `untagged` for posts with no group at all. A cursor is good only for the filters it came from (otherwise `invalid_cursor`) and for 24 hours. A walk returns every post that existed when it began exactly once; posts created meanwhile are newer and show up on a new walk, and nothing is ever returned twice.
     *
     *     Requires scope `posts:read`.
     */
    get: operations['listPosts'];
    put?: never;
    /**
     * Create a post and queue it to accounts
     * @description One queue item per account: `pending_approval`, or `queued` with `skipApproval`; carousel items are `processing` while the service renders the slides. Without `slides`, `media` is one video or 1-10 images; with `slides`, every media item is an image used by a slide (`invalid_media_set` otherwise). A repeat with the same `Idempotency-Key` and body returns the original post with 200.
     *
     *     Requires scope `posts:write`.
     */
    post: operations['createPost'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/posts/validate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Check a post without creating it (a dry run of createPost)
     * @description A dry run of `createPost` with the same body: answers 200 with every problem the create would meet, each with the `code`, `message` and `hint` the create would answer with and the body `field` (a JSON pointer) it is about: schema violations, repeated ids, unknown or unready uploads, a media set that cannot form a post, unknown accounts, unknown or archived content tags, `platformBPostFormat` "post" without the capability, and the daily posts cap and post credits the items would pass (read, not counted). `valid` is true exactly when `problems` is empty. Nothing is written: no post, queue item, idempotency key, event or quota use (the call counts as an API request). A body that is not a JSON object, or that holds NUL characters (refused on every route), is a 400.
     *
     *     Requires scope `posts:write`.
     */
    post: operations['validatePost'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/posts/{postId}/queue': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Queue an existing post to more accounts
     * @description Adds one item per account. An account whose earlier item ended `failed` or `cancelled` is queued again.
     *
     *     Requires scope `posts:write`.
     */
    post: operations['queuePost'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/posts/{postId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a post
     * @description Requires scope `posts:read`.
     */
    get: operations['getPost'];
    put?: never;
    post?: never;
    /**
     * Cancel a post, or one account of it
     * @description Items `processing`, `pending_approval` or `queued` become `cancelled`; nothing is deleted. Others are listed in `cancellation.skipped` with a reason: `currently_posting`, `already_posted`, `already_cancelled` or `already_failed`. With `accountId`, only that account’s item is targeted; an account the post has no item for answers 404 `account_not_found`. When no targeted item can be cancelled (including a draft with no items), 409 `post_not_cancellable`.
     *
     *     Requires scope `posts:write`.
     */
    delete: operations['cancelPost'];
    options?: never;
    head?: never;
    /**
     * Update post metadata or content tags
     * @description `caption`, `hashtags`, `sound`, `notes` and `platformBPostFormat` change only while no item has reached `posting` (`post_not_editable` afterwards); `notes: null` and `sound: null` clear them. `contentGroupIds` can change at any time and replaces the explicit tags (`[]` removes them all); template provenance stays. Archived tags cannot be added but stay when already on the post.
     *
     *     Requires scope `posts:write`.
     */
    patch: operations['updatePost'];
    trace?: never;
  };
  '/v2/posts/{postId}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Proof and punctuality of a post's deliveries
     * @description One entry per account the post is queued for: when its item was released and into which slot (a window of the schedule, or a make-up slot standing in for a missed one), when the account's worker claimed it, when it was posted and when the report arrived, whether it was on time (posted within the grace after its slot opened), the post's URL, a failure's reason, and the screenshot the worker sent as proof (an expiring signed URL). Items not released yet have nulls there.
     *
     *     Requires scope `posts:read`.
     */
    get: operations['listPostDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/media/posts/{postId}/{part}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download a rendered carousel slide or the post thumbnail
     * @description `part` is `thumbnail` or `slide-<n>` (from 0). Signed URLs come from post responses and the worker API; no API key.
     */
    get: operations['downloadPostMedia'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/accounts/{accountId}/queue': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List an account’s queue
     * @description Items of the account that are not final (`processing`, `pending_approval`, `queued`, `posting`). Order: `posting` items first, then release order: highest `priority` first, then oldest `queuedAt`, then `queueItemId`. `scheduledSlotStart` is given for `queued` items only; items awaiting approval or media have none. While the account is `pending_setup`, `paused` or `disconnected` nothing is released to it: its `queued` items keep their order, have no `scheduledSlotStart` and carry `notPlannedReason` instead. `limit` is 1-100 (default 25).
     *
     *     Requires scope `posts:read`.
     */
    get: operations['listAccountQueue'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/posts/{postId}/analytics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a post’s analytics
     * @description `summary` adds up the latest snapshot of every account the post went out to; `history` lists every snapshot, newest first, `limit` per page (1-100, default 25). Before any analytics the counters are 0 and `lastUpdated`, `postUrl`, `accountId` and `platform` are null. In `history`, `videoId` is the post id and `taskId` the queue item of the account.
     *
     *     Requires scope `analytics:read`.
     */
    get: operations['getPostAnalytics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/accounts/{accountId}/analytics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an account’s analytics
     * @description Requires scope `analytics:read`.
     */
    get: operations['getAccountAnalytics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List webhook endpoints
     * @description Requires scope `webhooks:read`.
     */
    get: operations['listWebhooks'];
    put?: never;
    /**
     * Create a webhook endpoint
     * @description Events of the chosen types are POSTed to `url` as `{type, timestamp, data}`, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the returned `secret`, which is shown only here. A 2xx answer is success; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (each ±10 %). The event types and their data are listed under `webhooks` in this document.
     *
     *     Requires scope `webhooks:write`.
     */
    post: operations['createWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/webhooks/{webhookId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a webhook endpoint
     * @description Requires scope `webhooks:read`.
     */
    get: operations['getWebhook'];
    put?: never;
    post?: never;
    /**
     * Delete a webhook endpoint with its delivery log
     * @description Requires scope `webhooks:write`.
     */
    delete: operations['deleteWebhook'];
    options?: never;
    head?: never;
    /**
     * Change a webhook endpoint's URL, event types or description
     * @description Requires scope `webhooks:write`.
     */
    patch: operations['updateWebhook'];
    trace?: never;
  };
  '/v2/webhooks/{webhookId}/disable': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Disable a webhook endpoint (its pending deliveries fail)
     * @description Requires scope `webhooks:write`.
     */
    post: operations['disableWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/webhooks/{webhookId}/enable': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Enable a webhook endpoint again
     * @description Requires scope `webhooks:write`.
     */
    post: operations['enableWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/webhooks/{webhookId}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replace the signing secret; the old one keeps signing for 24 hours
     * @description Requires scope `webhooks:write`.
     */
    post: operations['rotateWebhookSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/webhooks/{webhookId}/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a test event to the endpoint
     * @description Queues one `webhook.test` event for this endpoint only, whatever event types it chose; it is signed, retried and logged like any other delivery, so a receiver can check its signature verification. The endpoint's log (GET /v2/webhooks/{webhookId}/attempts?eventId=...) shows how it went. At most 5 a minute per endpoint (`rate_limited` with Retry-After); a disabled endpoint is refused.
     *
     *     Requires scope `webhooks:write`.
     */
    post: operations['sendWebhookTestEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/webhooks/{webhookId}/attempts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The delivery log: every attempt, newest first
     * @description Requires scope `webhooks:read`.
     */
    get: operations['listWebhookAttempts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/webhooks/{webhookId}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Each event's delivery to the endpoint and its retry state, newest first
     * @description Requires scope `webhooks:read`.
     */
    get: operations['listWebhookDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/webhooks/{webhookId}/replay': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send one event, or every event since a time, to the endpoint again
     * @description Each replayed event gets a new round of attempts with the same `webhook-id`, so a receiver that already handled it can recognise it. At most 10,000 events per call.
     *
     *     Requires scope `webhooks:write`.
     */
    post: operations['replayWebhookEvents'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/worker/v1/heartbeat': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Report in and read this worker’s accounts and open tasks
     * @description Notes the worker as seen. Lists the accounts it operates (their timezone is the worker’s), with their status, what this worker last reported and the warm-up search terms, and counts its open tasks: `released` ones waiting for a claim and `claimed` ones waiting for a report. No request body.
     */
    post: operations['workerHeartbeat'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/worker/v1/tasks/claim': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Claim released tasks
     * @description Takes up to `limit` (1-50, default 10) released tasks of the accounts this worker operates, oldest release first. Each task is claimed exactly once, also under concurrent claims; an empty `data` means nothing is waiting. A claimed task must be reported by its `reportBy`, or it fails as unconfirmed. The body may be left out.
     */
    post: operations['claimWorkerTasks'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/worker/v1/tasks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List this worker’s open tasks
     * @description Tasks waiting for a claim on the accounts this worker operates and tasks it claimed and has not reported, oldest release first, `limit` per page (1-100, default 25).
     */
    get: operations['listWorkerTasks'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/worker/v1/tasks/{taskId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a task
     * @description A task of an account this worker operates, or one it claimed. Media URLs are signed afresh on every read.
     */
    get: operations['getWorkerTask'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/worker/v1/tasks/{taskId}/result': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Report the outcome of a claimed task
     * @description `posted` with `postUrl` (and `postedAt`, default now) or `failed` with a `reason`. Sending the same report again returns the task unchanged; a different outcome for a reported task is `task_already_reported`. A task that failed because its claim went unreported can still be reported `posted` by the worker that claimed it.
     */
    post: operations['reportWorkerTask'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/worker/v1/tasks/{taskId}/proof': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Send a screenshot as proof of the task's post
     * @description The body is the image itself (PNG, JPEG, WebP or HEIC, at most 15 MiB and 8192 px a side), with its `Content-Type`; it is checked like any image upload and its pixels decoded whole, so a file cut short is `invalid_media_specs` (422) and a body past 15 MiB `file_too_large` (413). It is kept with the task; the company sees it in GET /v2/posts/{postId}/deliveries once the task is reported posted. The task must be claimed by this worker, before or after its `posted` report; a failed task takes none (`task_already_reported`). The same image again changes nothing; another one replaces it.
     */
    put: operations['putWorkerTaskProof'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/worker/v1/tasks/{taskId}/analytics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Add an analytics snapshot of a posted task
     * @description The counters as read on the platform at `collectedAt` (default now; not in the future, not before the post). Each snapshot is kept; GET /v2/posts/{postId}/analytics sums the latest one of every account. Views only grow: fewer views than a snapshot of the same task counted earlier, or more than one counted later, is `invalid_request`. The same snapshot (time and figures) sent again is answered with the one stored, so a retry never counts twice.
     */
    post: operations['createWorkerTaskAnalytics'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/worker/v1/accounts/{accountId}/stats': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Replace the statistics of an account this worker operates
     * @description The figures GET /v2/accounts/{accountId}/analytics shows; `followers` also becomes the account’s follower count and `status`, when sent, its status.
     */
    put: operations['putWorkerAccountStats'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/worker/v1/accounts/{accountId}/status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Report the status of an account this worker operates
     * @description Moves a new account out of `pending_setup`: report `warming_up` while warming it up with its `warmup.searchTerms` (in the answer), `active` when it can post, `disconnected` when access to it is lost (with a `reason` for the company). Releases go to `warming_up` and `active` accounts only. While the company has the account paused the report is kept and `status` stays `paused`; a resume returns it to the last report. Repeating the current status (without a new reason) changes nothing. Every change is kept in the account’s status history.
     */
    put: operations['putWorkerAccountStatus'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/worker/v1/push-subscription': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Register a device for pushes
     * @description Keeps the Web Push subscription of one of the worker’s devices: each released task is pushed to it at once ("New task for @account, window 14:00, report by 16:00"), and a reminder before a report is due. Registering the same endpoint again updates its keys; a worker may register several devices. A device the push service reports gone (404 or 410) is removed.
     */
    put: operations['putWorkerPushSubscription'];
    post?: never;
    /**
     * Remove a device from pushes
     * @description Forgets the subscription of this endpoint (send the subscription’s JSON or only its `endpoint`). Removing one the worker does not have changes nothing.
     */
    delete: operations['deleteWorkerPushSubscription'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  'upload.ready': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * upload.ready
     * @description An upload was validated and is ready.
     */
    post: operations['webhook_upload_ready'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'upload.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * upload.failed
     * @description An upload failed validation or fetch.
     */
    post: operations['webhook_upload_failed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'post.created': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * post.created
     * @description A post was created.
     */
    post: operations['webhook_post_created'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'post.item.pending_approval': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * post.item.pending_approval
     * @description A queue item waits for approval (item status `pending_approval`).
     */
    post: operations['webhook_post_item_pending_approval'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'post.item.approved': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * post.item.approved
     * @description A queue item was approved, or queued with skipApproval (item status `queued`).
     */
    post: operations['webhook_post_item_approved'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'post.item.rejected': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * post.item.rejected
     * @description A queue item was rejected in review (item status `cancelled`).
     */
    post: operations['webhook_post_item_rejected'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'post.item.released': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * post.item.released
     * @description A queue item was released to its account's worker (item status `posting`).
     */
    post: operations['webhook_post_item_released'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'post.item.posted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * post.item.posted
     * @description A queue item was published (item status `posted`).
     */
    post: operations['webhook_post_item_posted'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'post.item.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * post.item.failed
     * @description A queue item failed (item status `failed`).
     */
    post: operations['webhook_post_item_failed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'post.item.unconfirmed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * post.item.unconfirmed
     * @description A queue item was claimed by a worker that never reported, so whether it was posted is unknown (item status `failed`).
     */
    post: operations['webhook_post_item_unconfirmed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'post.item.cancelled': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * post.item.cancelled
     * @description A queue item was cancelled (item status `cancelled`).
     */
    post: operations['webhook_post_item_cancelled'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'post.status_changed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * post.status_changed
     * @description A post's derived status changed.
     */
    post: operations['webhook_post_status_changed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'account.status_changed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * account.status_changed
     * @description An account's effective status changed.
     */
    post: operations['webhook_account_status_changed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'analytics.updated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * analytics.updated
     * @description A post's analytics changed; sent at most once per post per minute.
     */
    post: operations['webhook_analytics_updated'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'webhook.test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * webhook.test
     * @description A test event, sent on request to one endpoint to check that it receives and verifies deliveries.
     */
    post: operations['webhook_webhook_test'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface components {
  schemas: {
    /** @description The error envelope of every unsuccessful response */
    ErrorEnvelope: {
      error: {
        /**
         * @description Stable machine-readable error code; new codes may be added
         * @enum {string}
         */
        code:
          | 'invalid_request'
          | 'invalid_cursor'
          | 'invalid_media_set'
          | 'idempotency_key_mismatch'
          | 'unauthorized'
          | 'insufficient_scope'
          | 'invalid_signature'
          | 'account_limit_reached'
          | 'account_not_found'
          | 'post_not_found'
          | 'upload_not_found'
          | 'tag_not_found'
          | 'image_not_found'
          | 'task_not_found'
          | 'webhook_not_found'
          | 'event_not_found'
          | 'webhook_limit_reached'
          | 'not_found'
          | 'range_not_satisfiable'
          | 'method_not_allowed'
          | 'upload_not_ready'
          | 'media_not_ready'
          | 'duplicate_queue_item'
          | 'post_not_editable'
          | 'post_not_cancellable'
          | 'post_already_published'
          | 'platformB_feed_posts_disabled'
          | 'tag_name_taken'
          | 'account_exists'
          | 'upload_already_completed'
          | 'upload_content_conflict'
          | 'upload_incomplete'
          | 'idempotency_key_in_use'
          | 'task_not_claimed'
          | 'task_already_reported'
          | 'task_not_posted'
          | 'request_timeout'
          | 'file_too_large'
          | 'request_too_large'
          | 'unsupported_media_type'
          | 'source_fetch_failed'
          | 'invalid_media_specs'
          | 'rate_limited'
          | 'quota_exceeded'
          | 'internal_error'
          | 'service_unavailable';
        /** @description What went wrong, naming the field */
        message: string;
        /** @description The next step to take */
        hint: string;
        /** @description Quote this to support */
        requestId: string;
      };
    };
    Account: {
      accountId: string;
      /**
       * @description `platformA` is the short-video network, `platformB` the photo and video network
       * @enum {string}
       */
      platform: 'platformA' | 'platformB';
      username: string;
      displayName: string;
      /**
       * @description `pending_setup`: created, waiting for its worker to set it up (every new account starts here); `warming_up`: its worker is warming it up with `warmup.searchTerms`; `active`: its worker can post; `paused`: paused by the company (POST /v2/accounts/{accountId}/pause); `disconnected`: its worker lost access. The worker moves it between `pending_setup`, `warming_up`, `active` and `disconnected`; only the company pauses and resumes. Items are released to `warming_up` and `active` accounts only; the others keep theirs `queued`.
       * @enum {string}
       */
      status: 'pending_setup' | 'warming_up' | 'active' | 'paused' | 'disconnected';
      /**
       * Format: date-time
       * @description When the account entered its current `status`
       */
      statusSince: string;
      /** @description What the worker said with its last report (why it is `disconnected`, say); null while paused or when it gave no reason */
      statusReason: string | null;
      /** @description IANA timezone of the worker operating the account */
      timezone: string;
      followers: number;
      /** @description Releases in the account’s local day */
      postsToday: number;
      /** @description At most 4 releases per local day */
      dailyCap: number;
      /** @description Items waiting to be released */
      queueDepth: number;
      /**
       * Format: date-time
       * @description Start of the account’s next posting window; null while nothing is released to it (`pending_setup`, `paused`, `disconnected`)
       */
      nextWindow: string | null;
      /** Format: date-time */
      lastPostAt: string | null;
      bio: string;
      bioUrl: string | null;
      profilePictureUrl: string;
      warmup: {
        searchTerms: string[];
      };
      /** Format: date-time */
      createdAt: string;
    };
    AccountStatusEvent: {
      /**
       * @description The account’s status after the change
       * @enum {string}
       */
      status: 'pending_setup' | 'warming_up' | 'active' | 'paused' | 'disconnected';
      /**
       * @description What the worker had last reported after the change; a resume returns the account to it
       * @enum {string}
       */
      reportedStatus: 'pending_setup' | 'warming_up' | 'active' | 'disconnected';
      /**
       * @description `worker`: a report of the account’s worker; `company`: a pause or resume through the API; `system`: the account’s creation (or its status when history began)
       * @enum {string}
       */
      source: 'worker' | 'company' | 'system';
      /** @description The reason the worker gave, if any */
      reason: string | null;
      /** Format: date-time */
      at: string;
    };
    ContentTag: {
      tagId: string;
      /** @description `tag:<tagId>`, used in posts and list filters */
      contentGroupId: string;
      name: string;
      /**
       * @description Dashboard display color
       * @enum {string}
       */
      color: 'slate' | 'blue' | 'cyan' | 'green' | 'amber' | 'orange' | 'rose' | 'violet';
      archived: boolean;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Schedule: {
      /** @description 1-4 windows, ascending, 08:00-17:00, at least 3 hours apart */
      windows: string[];
    };
    Upload: {
      uploadId: string;
      /** @enum {string} */
      kind: 'video' | 'image';
      /**
       * @description `pending` until its bytes are validated. A signed upload not completed within an hour of its URL expiring, and a remote upload whose fetch did not end within 15 minutes, become `failed` with `error`
       * @enum {string}
       */
      status: 'pending' | 'ready' | 'failed';
      /**
       * Format: uri
       * @description Signed, expires in an hour
       */
      url?: string;
      /**
       * Format: uri
       * @description Signed; appears once the thumbnail is made
       */
      thumbnailUrl?: string;
      /**
       * @description Ready uploads only: `pending` until the thumbnail is made, `failed` (with `thumbnailError`) when it cannot be; posts made from it then have no thumbnail
       * @enum {string}
       */
      thumbnailStatus?: 'pending' | 'ready' | 'failed';
      /** @description Why no thumbnail could be made (thumbnailStatus failed) */
      thumbnailError?: string;
      /** @description Why the upload failed */
      error?: string;
      filename: string;
      contentType: string;
      sizeBytes?: number;
      /** @description Ready uploads: SHA-256 (hex) of the validated content, which never changes */
      sha256?: string;
      width?: number;
      height?: number;
      durationSeconds?: number;
      /** Format: date-time */
      createdAt: string;
    };
    Post: {
      postId: string;
      /** @enum {string} */
      status:
        | 'draft'
        | 'pending_approval'
        | 'queued'
        | 'posting'
        | 'posted'
        | 'partially_posted'
        | 'cancelled'
        | 'processing'
        | 'failed';
      media: {
        /** @enum {string} */
        kind: 'video' | 'image';
        count: number;
        /** Format: uri */
        thumbnailUrl: string | null;
      };
      caption: string | null;
      hashtags: string[];
      sound: {
        /** @enum {string} */
        mode: 'trending' | 'original' | 'specific';
        /** Format: uri */
        url?: string;
        urlsByPlatform?: {
          /** Format: uri */
          platformA?: string;
          /** Format: uri */
          platformB?: string;
        };
      } | null;
      notes: string | null;
      contentGroupIds: string[];
      /** @enum {string} */
      platformBPostFormat: 'reel' | 'post';
      /** Format: date-time */
      createdAt: string;
      accounts: {
        accountId: string;
        username: string;
        /**
         * @description `platformA` is the short-video network, `platformB` the photo and video network
         * @enum {string}
         */
        platform: 'platformA' | 'platformB';
        /** @enum {string} */
        status:
          | 'draft'
          | 'pending_approval'
          | 'queued'
          | 'posting'
          | 'posted'
          | 'partially_posted'
          | 'cancelled'
          | 'processing'
          | 'failed';
        /** Format: date-time */
        queuedAt: string;
        /** Format: date-time */
        approvedAt?: string;
        /** Format: date-time */
        scheduledAfter?: string;
        /** Format: date-time */
        scheduledSlotStart?: string;
        /** Format: date-time */
        postedAt?: string;
        /** Format: uri */
        postUrl?: string;
        /** @description Why the item failed, present when its status is `failed`: the worker’s reason, a media error, or a missed report deadline (nothing is retried on its own; queue the post again for the account to retry) */
        error?: string;
      }[];
    };
    Delivery: {
      accountId: string;
      username: string;
      /**
       * @description `platformA` is the short-video network, `platformB` the photo and video network
       * @enum {string}
       */
      platform: 'platformA' | 'platformB';
      /** @enum {string} */
      status:
        | 'processing'
        | 'pending_approval'
        | 'queued'
        | 'posting'
        | 'posted'
        | 'failed'
        | 'cancelled';
      /** Format: date-time */
      releasedAt: string | null;
      /**
       * Format: date-time
       * @description When the account's worker took it
       */
      claimedAt: string | null;
      /**
       * Format: date-time
       * @description When it went out, as the worker reported
       */
      postedAt: string | null;
      /**
       * Format: date-time
       * @description When the worker's report arrived
       */
      reportedAt: string | null;
      slot: {
        /**
         * Format: date-time
         * @description When the slot opened: the reference of `onTime`
         */
        start: string;
        /** @description The release's day in the worker's timezone */
        localDate: string;
        /** @description The slot's local time, "HH:mm" */
        label: string;
        /**
         * @description `window`: one of the schedule's windows; `makeup`: a standard slot the schedule does not use, taking the place of a window that released nothing although an item was due
         * @enum {string}
         */
        kind: 'window' | 'makeup';
      } | null;
      /** @description Whether it was posted within the grace (60 minutes unless the service is configured otherwise) after its slot opened; null until posted */
      onTime: boolean | null;
      /** @description Minutes from the slot opening to the posting */
      minutesAfterSlotStart: number | null;
      /** Format: uri */
      postUrl: string | null;
      failureReason: string | null;
      /**
       * Format: uri
       * @description The screenshot the worker sent as proof (an expiring signed URL); null until the item is posted
       */
      proofScreenshotUrl: string | null;
    };
    PostProblem: {
      /**
       * @description The error code POST /v2/posts would answer with
       * @enum {string}
       */
      code:
        | 'invalid_request'
        | 'invalid_cursor'
        | 'invalid_media_set'
        | 'idempotency_key_mismatch'
        | 'unauthorized'
        | 'insufficient_scope'
        | 'invalid_signature'
        | 'account_limit_reached'
        | 'account_not_found'
        | 'post_not_found'
        | 'upload_not_found'
        | 'tag_not_found'
        | 'image_not_found'
        | 'task_not_found'
        | 'webhook_not_found'
        | 'event_not_found'
        | 'webhook_limit_reached'
        | 'not_found'
        | 'range_not_satisfiable'
        | 'method_not_allowed'
        | 'upload_not_ready'
        | 'media_not_ready'
        | 'duplicate_queue_item'
        | 'post_not_editable'
        | 'post_not_cancellable'
        | 'post_already_published'
        | 'platformB_feed_posts_disabled'
        | 'tag_name_taken'
        | 'account_exists'
        | 'upload_already_completed'
        | 'upload_content_conflict'
        | 'upload_incomplete'
        | 'idempotency_key_in_use'
        | 'task_not_claimed'
        | 'task_already_reported'
        | 'task_not_posted'
        | 'request_timeout'
        | 'file_too_large'
        | 'request_too_large'
        | 'unsupported_media_type'
        | 'source_fetch_failed'
        | 'invalid_media_specs'
        | 'rate_limited'
        | 'quota_exceeded'
        | 'internal_error'
        | 'service_unavailable';
      /** @description What is wrong, naming the field */
      message: string;
      /** @description The next step to take */
      hint: string;
      /** @description JSON pointer of the body field the problem is about (`/slides/0/image`), when it is about one */
      field?: string;
    };
    PostValidation: {
      /** @description True exactly when `problems` is empty */
      valid: boolean;
      /** @description Every problem found, in the order a create meets them: schema violations, then media, accounts, content tags, feed format and quota */
      problems: components['schemas']['PostProblem'][];
    };
    QueueItem: {
      postId: string;
      queueItemId: string;
      /**
       * @description Only items not yet final appear: `processing`, `pending_approval`, `queued`, `posting`
       * @enum {string}
       */
      status:
        | 'draft'
        | 'pending_approval'
        | 'queued'
        | 'posting'
        | 'posted'
        | 'partially_posted'
        | 'cancelled'
        | 'processing'
        | 'failed';
      /** @description The post’s caption; "" when it has none */
      caption: string;
      /**
       * Format: uri
       * @description Signed URL of the post’s thumbnail, valid for an hour; absent while the post has none (a video thumbnail still being made)
       */
      thumbnailUrl?: string;
      /** Format: date-time */
      queuedAt: string;
      /**
       * Format: date-time
       * @description Legacy earliest-release floor; only when the item has one
       */
      scheduledAfter?: string;
      /**
       * Format: date-time
       * @description Planned window start, for `queued` items only: the account’s effective schedule in its timezone, today’s releases and the queue as it stands now (recomputed as it changes). Absent while the account receives no releases (see `notPlannedReason`)
       */
      scheduledSlotStart?: string;
      /**
       * @description On `queued` items of an account that receives no releases, why none is planned: `account_pending_setup` (its worker has not reported it `warming_up` or `active` yet), `account_paused` (the company paused it; POST /v2/accounts/{accountId}/resume), `account_disconnected` (its worker lost access). The items keep their place and are planned again once the account can post.
       * @enum {string}
       */
      notPlannedReason?: 'account_pending_setup' | 'account_paused' | 'account_disconnected';
    };
    AnalyticsSnapshot: {
      /** @description Snapshot id */
      id: string;
      /** @description The post id: the published video or carousel */
      videoId: string;
      accountId: string;
      /**
       * @description `platformA` is the short-video network, `platformB` the photo and video network
       * @enum {string}
       */
      platform: 'platformA' | 'platformB';
      /** Format: uri */
      postUrl: string | null;
      views: number;
      likes: number;
      comments: number;
      shares: number;
      saves: number;
      /** Format: date-time */
      collectedAt: string;
      /** @description The queue item (per-account task) the snapshot is of */
      taskId: string;
    };
    PostAnalytics: {
      /** @description Totals over the latest snapshot of each account the post went out to; the counters are 0 before any analytics. `postUrl`, `accountId` and `platform` name the account whose latest snapshot has the most views (ties: the newer snapshot). */
      summary: {
        views: number;
        likes: number;
        comments: number;
        shares: number;
        saves: number;
        /** @description (likes + comments + shares + saves) / views as a percentage, rounded to two decimals (4.25 means 4.25 %); 0 when views is 0. Can exceed 100. */
        engagementRate: number;
        /**
         * Format: date-time
         * @description Newest snapshot of the post; null before any analytics
         */
        lastUpdated: string | null;
        /**
         * Format: uri
         * @description Published URL on the most viewed account; null before any analytics
         */
        postUrl: string | null;
        /** @description The most viewed account; null before any analytics */
        accountId: string | null;
        /**
         * @description Platform of the most viewed account entry; null before any analytics
         * @enum {string|null}
         */
        platform: 'platformA' | 'platformB' | null;
      };
      /** @description Snapshots, newest first (collectedAt desc, then id desc) */
      history: components['schemas']['AnalyticsSnapshot'][];
      /** @description Send back unchanged as `cursor` for the next page; null on the last page */
      nextCursor: string | null;
    };
    /** @description The account’s latest statistics as reported by its worker; zeros until the first report (`followers` then shows the account’s own count). */
    AccountAnalytics: {
      accountId: string;
      followers: number;
      /** @description Posts on the account’s profile */
      posts: number;
      /** @description Engagement rate of the scanned posts, a percentage rounded to two decimals like `engagementRate` of post analytics */
      engagement: number;
      /** @description Totals over the scanned posts */
      analytics: {
        views: number;
        likes: number;
        comments: number;
      };
      /** @description Posts whose analytics these figures cover */
      scannedPosts: number;
    };
    WorkerTask: {
      /** @description The released queue item */
      taskId: string;
      postId: string;
      accountId: string;
      /**
       * @description `platformA` is the short-video network, `platformB` the photo and video network
       * @enum {string}
       */
      platform: 'platformA' | 'platformB';
      username: string;
      /**
       * @description `released`: waiting for a claim; `claimed`: taken by this worker, report the outcome; `posted` and `failed`: final
       * @enum {string}
       */
      state: 'released' | 'claimed' | 'posted' | 'failed';
      caption: string | null;
      hashtags: string[];
      sound: {
        /** @enum {string} */
        mode: 'trending' | 'original' | 'specific';
        /** Format: uri */
        url?: string;
        urlsByPlatform?: {
          /** Format: uri */
          platformA?: string;
          /** Format: uri */
          platformB?: string;
        };
      } | null;
      /** @enum {string} */
      platformBPostFormat: 'reel' | 'post';
      media: {
        /**
         * @description `carousel`: slides rendered by the service, in order
         * @enum {string}
         */
        kind: 'video' | 'images' | 'carousel';
        items: {
          /**
           * Format: uri
           * @description Signed download URL
           */
          url: string;
          contentType: string;
          /** @description SHA-256 (hex) of an uploaded file, to check the download against */
          sha256?: string;
        }[];
        /** Format: uri */
        thumbnailUrl: string | null;
        /**
         * Format: date-time
         * @description When the signed URLs expire
         */
        expiresAt: string;
      };
      /** Format: date-time */
      releasedAt: string;
      /** Format: date-time */
      claimedAt: string | null;
      /**
       * Format: date-time
       * @description Deadline for the outcome; an open task still unreported then fails as unconfirmed
       */
      reportBy: string | null;
      /** Format: date-time */
      postedAt: string | null;
      /** Format: uri */
      postUrl: string | null;
      failureReason: string | null;
      /**
       * Format: uri
       * @description The screenshot sent as proof of the post (an expiring signed URL)
       */
      proofScreenshotUrl: string | null;
    };
    WorkerAccount: {
      accountId: string;
      /**
       * @description `platformA` is the short-video network, `platformB` the photo and video network
       * @enum {string}
       */
      platform: 'platformA' | 'platformB';
      username: string;
      timezone: string;
      /**
       * @description The account’s status: `paused` while its company paused it (releases stop; what this worker reports is kept and applies on resume), otherwise `reportedStatus`
       * @enum {string}
       */
      status: 'pending_setup' | 'warming_up' | 'active' | 'paused' | 'disconnected';
      /** Format: date-time */
      statusSince: string;
      /**
       * @description What this worker last reported (`pending_setup` until its first report): report `warming_up` while warming the account up with `warmup.searchTerms`, `active` when it can post, `disconnected` when it lost access
       * @enum {string}
       */
      reportedStatus: 'pending_setup' | 'warming_up' | 'active' | 'disconnected';
      /**
       * Format: date-time
       * @description When that report changed it
       */
      reportedAt: string | null;
      warmup: {
        /** @description What to search for and watch while warming the account up */
        searchTerms: string[];
      };
    };
    WebhookEndpoint: {
      webhookId: string;
      url: string;
      description: string;
      events: (
        | 'upload.ready'
        | 'upload.failed'
        | 'post.created'
        | 'post.item.pending_approval'
        | 'post.item.approved'
        | 'post.item.rejected'
        | 'post.item.released'
        | 'post.item.posted'
        | 'post.item.failed'
        | 'post.item.unconfirmed'
        | 'post.item.cancelled'
        | 'post.status_changed'
        | 'account.status_changed'
        | 'analytics.updated'
      )[];
      /**
       * @description `failing` after a failed attempt until the next success; `disabled` by request, on a 410 answer, or after 5 days of failures (pending deliveries then fail)
       * @enum {string}
       */
      status: 'active' | 'failing' | 'disabled';
      disabledReason: string | null;
      /** Format: date-time */
      failingSince: string | null;
      /** Format: date-time */
      lastSuccessAt: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    WebhookAttempt: {
      attemptId: string;
      deliveryId: string;
      eventId: string;
      eventType: string;
      /** @description 1, 2, ... within the delivery (a replay starts at 1) */
      attempt: number;
      /** @enum {string} */
      trigger: 'scheduled' | 'replay';
      /** Format: date-time */
      startedAt: string;
      durationMs: number;
      /** @enum {string} */
      outcome: 'succeeded' | 'failed';
      responseStatus: number | null;
      /** @description The first 1 KiB of the answer */
      responseBody: string | null;
      /** @description Why no HTTP answer came */
      error: string | null;
    };
    WebhookDelivery: {
      deliveryId: string;
      eventId: string;
      eventType: string;
      /** @enum {string} */
      status: 'pending' | 'succeeded' | 'failed';
      attempts: number;
      /** Format: date-time */
      nextAttemptAt: string | null;
      /** Format: date-time */
      lastAttemptAt: string | null;
      lastResponseStatus: number | null;
      /** Format: date-time */
      createdAt: string;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getOpenApi: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The machine-readable description of this API */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
    };
  };
  listAccounts: {
    parameters: {
      query?: {
        /** @description `platformA` is the short-video network, `platformB` the photo and video network */
        platform?: 'platformA' | 'platformB';
        /** @description Page size */
        limit?: number;
        /** @description nextCursor from the previous page */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description List publishing accounts */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Account'][];
            /** @description Send back unchanged as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
          };
        };
      };
      /** @description Error codes: `invalid_request`, `invalid_cursor` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  createAccount: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description `platformA` is the short-video network, `platformB` the photo and video network
           * @enum {string}
           */
          platform: 'platformA' | 'platformB';
          /** @description Handle on the platform, without "@"; unique per platform in the company */
          username: string;
          displayName: string;
          bio: string;
          /**
           * Format: uri
           * @description Profile picture, an http(s) URL
           */
          profilePictureUrl: string;
          /**
           * Format: uri
           * @description Link shown in the bio
           */
          bioUrl?: string;
          warmup: {
            searchTerms: string[];
          };
        };
      };
    };
    responses: {
      /** @description Create a publishing account */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Account'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope`, `account_limit_reached` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `account_exists` */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  getAccount: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Get a publishing account */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Account'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `account_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  pauseAccount: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Pause a publishing account */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Account'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `account_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  resumeAccount: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Resume a paused publishing account */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Account'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `account_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  listAccountStatusHistory: {
    parameters: {
      query?: {
        /** @description Page size */
        limit?: number;
        /** @description nextCursor from the previous page */
        cursor?: string;
      };
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description List the status changes of an account */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['AccountStatusEvent'][];
            /** @description Send back unchanged as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
          };
        };
      };
      /** @description Error codes: `invalid_request`, `invalid_cursor` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `account_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  listContentTags: {
    parameters: {
      query?: {
        /** @description Page size */
        limit?: number;
        /** @description nextCursor from the previous page */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description List content tags, active and archived */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['ContentTag'][];
            /** @description Send back unchanged as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
          };
        };
      };
      /** @description Error codes: `invalid_request`, `invalid_cursor` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  createContentTag: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Unique within the company, compared case-insensitively */
          name: string;
          /**
           * @description Dashboard display color
           * @enum {string}
           */
          color?: 'slate' | 'blue' | 'cyan' | 'green' | 'amber' | 'orange' | 'rose' | 'violet';
        };
      };
    };
    responses: {
      /** @description Create a content tag */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ContentTag'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `tag_name_taken` */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  deleteContentTag: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        tagId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Delete a content tag and remove it from every post */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            tagId: string;
            /** @description Posts the tag was removed from */
            updatedPosts: number;
          };
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `tag_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  updateContentTag: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        tagId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Unique within the company, compared case-insensitively */
          name?: string;
          /**
           * @description Dashboard display color
           * @enum {string}
           */
          color?: 'slate' | 'blue' | 'cyan' | 'green' | 'amber' | 'orange' | 'rose' | 'violet';
          archived?: boolean;
        };
      };
    };
    responses: {
      /** @description Rename, recolor, archive or restore a content tag */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ContentTag'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `tag_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `tag_name_taken` */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  getCompanySchedule: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Read the company default posting schedule */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            companyId: string;
            schedule: components['schemas']['Schedule'] | null;
            /**
             * @description Where the effective schedule comes from
             * @enum {string}
             */
            source: 'account' | 'company' | 'global';
            /** @description Windows of the effective schedule */
            scheduledPostsPerDay: number;
            /** @description Always 4 */
            maxPostsPerDay: number;
            /** @enum {string} */
            timezoneMode: 'worker_local';
          };
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  updateCompanySchedule: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description Windows are worker-local HH:mm times: 1-4 entries, ascending, between 08:00 and 17:00 inclusive, consecutive entries at least 3 hours apart. `null` clears the schedule. */
    requestBody: {
      content: {
        'application/json': {
          schedule: {
            windows: string[];
          } | null;
        };
      };
    };
    responses: {
      /** @description Replace the company default posting schedule */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            companyId: string;
            schedule: components['schemas']['Schedule'] | null;
            /**
             * @description Where the effective schedule comes from
             * @enum {string}
             */
            source: 'account' | 'company' | 'global';
            /** @description Windows of the effective schedule */
            scheduledPostsPerDay: number;
            /** @description Always 4 */
            maxPostsPerDay: number;
            /** @enum {string} */
            timezoneMode: 'worker_local';
          };
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  getAccountSchedule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Read an account’s schedule override and effective schedule */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            accountId: string;
            schedule: components['schemas']['Schedule'] | null;
            companySchedule: components['schemas']['Schedule'] | null;
            effectiveSchedule: components['schemas']['Schedule'];
            /**
             * @description Where the effective schedule comes from
             * @enum {string}
             */
            source: 'account' | 'company' | 'global';
            /** @description Windows of the effective schedule */
            scheduledPostsPerDay: number;
            /** @description Always 4 */
            maxPostsPerDay: number;
            /** @enum {string} */
            timezoneMode: 'worker_local';
            /** @description IANA timezone the windows are read in */
            timezone: string;
          };
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `account_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  updateAccountSchedule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    /** @description Windows are worker-local HH:mm times: 1-4 entries, ascending, between 08:00 and 17:00 inclusive, consecutive entries at least 3 hours apart. `null` clears the schedule. */
    requestBody: {
      content: {
        'application/json': {
          schedule: {
            windows: string[];
          } | null;
        };
      };
    };
    responses: {
      /** @description Replace an account’s schedule override */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            accountId: string;
            schedule: components['schemas']['Schedule'] | null;
            companySchedule: components['schemas']['Schedule'] | null;
            effectiveSchedule: components['schemas']['Schedule'];
            /**
             * @description Where the effective schedule comes from
             * @enum {string}
             */
            source: 'account' | 'company' | 'global';
            /** @description Windows of the effective schedule */
            scheduledPostsPerDay: number;
            /** @description Always 4 */
            maxPostsPerDay: number;
            /** @enum {string} */
            timezoneMode: 'worker_local';
            /** @description IANA timezone the windows are read in */
            timezone: string;
          };
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `account_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  getWorkspace: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Read the company, its accounts, image folders and packs */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Data-shape version of this response; 1 */
            version: number;
            /** Format: date-time */
            refreshedAt: string;
            company: {
              companyId: string;
              name: string;
              description: string;
              website: string;
            };
            accounts: {
              accountId: string;
              /**
               * @description `platformA` is the short-video network, `platformB` the photo and video network
               * @enum {string}
               */
              platform: 'platformA' | 'platformB';
              username: string;
              displayName: string;
              status: string;
              timezone: string;
              followers: number;
              postsToday: number;
              dailyCap: number;
              queueDepth: number;
              /** Format: date-time */
              nextWindow: string | null;
              /** Format: date-time */
              lastPostAt: string | null;
              niche: string;
              warmupSearchTerms: string[];
            }[];
            folders: {
              folderId: string;
              name: string;
              /** Format: date-time */
              createdAt: string;
              images: {
                imageId: string;
                folderId: string;
                label: string;
                description: string;
                tags: string[];
                width: number;
                height: number;
                /** Format: date-time */
                createdAt: string;
              }[];
              packs: {
                packId: string;
                folderId: string;
                name: string;
                description: string;
                color: string;
                imageIds: string[];
                /** @enum {string} */
                imageFit: 'fit' | 'fill';
                useImagesOnce: boolean;
              }[];
            }[];
          };
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  createMediaUrls: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          items: {
            folderId: string;
            imageId: string;
          }[];
          /** @description Defaults to 900 */
          expiresInSeconds?: number;
        };
      };
    };
    responses: {
      /** @description Mint short-lived download URLs for company images */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: date-time */
            expiresAt: string;
            data: {
              folderId: string;
              imageId: string;
              /** Format: uri */
              url: string;
            }[];
          };
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `image_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  downloadImage: {
    parameters: {
      query: {
        /** @description Expiry, Unix seconds */
        expires: number;
        signature: string;
      };
      header?: never;
      path: {
        imageId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The image bytes */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'image/*': string;
        };
      };
      /** @description On local storage, for a request with one byte range (`Range: bytes=…`): those bytes, with Content-Range. Several ranges are answered whole (200). */
      206: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
        };
      };
      /** @description With object storage: a redirect (Location) to a short-lived URL of the bucket serving the bytes */
      302: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `invalid_signature` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `image_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `range_not_satisfiable` */
      416: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  getUsage: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Plan limits and today’s usage */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            plan: string;
            billingType: string;
            /** @description Ready videos the plan allows in total */
            videoQuota: number;
            /** @description Ready videos uploaded so far */
            videoCount: number;
            postCredits: {
              /** @description Credits per UTC calendar month */
              limit: number;
              /** @description Credits used this month; one per queue item */
              used: number;
            };
            /** @description Daily cap on queue items created, per UTC day */
            postsPerDay: number;
            apiRequestsToday: number;
            /** @description Queue items created today (UTC), one per account */
            postsCreatedToday: number;
          };
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  createUpload: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description Signed form: `kind`, `filename`, `contentType`, `sizeBytes`; the response gives an `uploadUrl` to `PUT` the bytes to (header `Content-Type` equal to `contentType`, body of exactly `sizeBytes`), then `POST /v2/uploads/{uploadId}/complete`. Remote form: `kind`, `sourceUrl` and optionally `filename`; the file is fetched and validated at once. */
    requestBody: {
      content: {
        'application/json': {
          /** @enum {string} */
          kind: 'video' | 'image';
          filename?: string;
          contentType?: string;
          /** @description Signed form: exact size; videos at most 209,715,200, images at most 52,428,800 */
          sizeBytes?: number;
          /**
           * Format: uri
           * @description Remote form: the service downloads this file itself
           */
          sourceUrl?: string;
        };
      };
    };
    responses: {
      /** @description Create an upload (signed or remote) */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            uploadId: string;
            /** @enum {string} */
            status?: 'pending' | 'ready';
            /** Format: uri */
            uploadUrl?: string;
            /** Format: date-time */
            expiresAt?: string;
          };
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large`, `file_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `invalid_media_specs`, `source_fetch_failed` */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited`, `quota_exceeded` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  uploadBytes: {
    parameters: {
      query: {
        /** @description Expiry, Unix seconds */
        expires: number;
        signature: string;
      };
      header?: never;
      path: {
        uploadId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Send the file bytes to a signed upload URL */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            uploadId: string;
            /** @enum {string} */
            status: 'pending';
            receivedBytes: number;
            /** @description SHA-256 (hex) of the bytes received */
            sha256: string;
          };
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `invalid_signature` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `upload_already_completed`, `upload_content_conflict` */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `file_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  completeUpload: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        uploadId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Validate the uploaded file and mark it ready */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Upload'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `upload_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `upload_already_completed`, `upload_incomplete` */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `file_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `invalid_media_specs` */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited`, `quota_exceeded` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  getUpload: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        uploadId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Get an upload */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Upload'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `upload_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  downloadUpload: {
    parameters: {
      query: {
        /** @description Expiry, Unix seconds */
        expires: number;
        signature: string;
      };
      header?: never;
      path: {
        uploadId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file bytes */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/octet-stream': string;
        };
      };
      /** @description On local storage, for a request with one byte range (`Range: bytes=…`): those bytes, with Content-Range. Several ranges are answered whole (200). */
      206: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
        };
      };
      /** @description With object storage: a redirect (Location) to a short-lived URL of the bucket serving the bytes */
      302: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `invalid_signature` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `upload_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `range_not_satisfiable` */
      416: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  downloadUploadThumbnail: {
    parameters: {
      query: {
        /** @description Expiry, Unix seconds */
        expires: number;
        signature: string;
      };
      header?: never;
      path: {
        uploadId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The JPEG thumbnail */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/octet-stream': string;
        };
      };
      /** @description On local storage, for a request with one byte range (`Range: bytes=…`): those bytes, with Content-Range. Several ranges are answered whole (200). */
      206: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
        };
      };
      /** @description With object storage: a redirect (Location) to a short-lived URL of the bucket serving the bytes */
      302: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `invalid_signature` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `upload_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `range_not_satisfiable` */
      416: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  listPosts: {
    parameters: {
      query?: {
        /** @description Page size */
        limit?: number;
        /** @description nextCursor from the previous page */
        cursor?: string;
        accountId?: string;
        status?:
          | 'draft'
          | 'pending_approval'
          | 'queued'
          | 'posting'
          | 'posted'
          | 'partially_posted'
          | 'cancelled'
          | 'processing'
          | 'failed';
        since?: string;
        contentGroupId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description List posts, newest first */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Post'][];
            /** @description Send back unchanged as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
          };
        };
      };
      /** @description Error codes: `invalid_request`, `invalid_cursor` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `account_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  createPost: {
    parameters: {
      query?: never;
      header?: {
        /** @description Repeat-safe key, kept 24 hours */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          media: string[];
          accountIds: string[];
          caption?: string;
          hashtags?: string[];
          sound?: {
            /** @enum {string} */
            mode: 'trending' | 'original' | 'specific';
            /** Format: uri */
            url?: string;
            urlsByPlatform?: {
              /** Format: uri */
              platformA?: string;
              /** Format: uri */
              platformB?: string;
            };
          };
          notes?: string;
          priority?: number;
          /** @enum {string} */
          platformBPostFormat?: 'reel' | 'post';
          skipApproval?: boolean;
          contentGroupIds?: string[];
          slides?: {
            image: string;
            textElements: {
              content: string;
              style: {
                /**
                 * @default none
                 * @enum {string}
                 */
                backgroundColor?: 'none' | 'black' | 'white' | 'red' | 'yellow' | 'blue';
                /**
                 * @default white
                 * @enum {string}
                 */
                textColor?: 'white' | 'black' | 'red' | 'yellow' | 'blue';
                /** @default 16 */
                fontSize?: number;
                /**
                 * @default normal
                 * @enum {string}
                 */
                fontWeight?: 'normal' | 'bold';
                /**
                 * @default center
                 * @enum {string}
                 */
                textAlign?: 'left' | 'center' | 'right';
                /**
                 * @default stroke
                 * @enum {string}
                 */
                textMode?: 'stroke' | 'background' | 'plain' | 'snapchat';
                /** @default 50 */
                positionX?: number;
                positionY: number;
                /** @default 88 */
                width?: number;
                /** @default 0 */
                padding?: number;
              };
            }[];
            /**
             * @default fill
             * @enum {string}
             */
            imageFit?: 'fit' | 'fill';
            /** @enum {string} */
            role?: 'hook' | 'middle' | 'cta';
          }[];
        };
      };
    };
    responses: {
      /** @description Create a post and queue it to accounts */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Post'];
        };
      };
      /** @description Create a post and queue it to accounts */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Post'];
        };
      };
      /** @description Error codes: `invalid_request`, `idempotency_key_mismatch`, `invalid_media_set`, `account_not_found`, `upload_not_found`, `tag_not_found` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `platformB_feed_posts_disabled`, `upload_not_ready` */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited`, `quota_exceeded` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  validatePost: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          media: string[];
          accountIds: string[];
          caption?: string;
          hashtags?: string[];
          sound?: {
            /** @enum {string} */
            mode: 'trending' | 'original' | 'specific';
            /** Format: uri */
            url?: string;
            urlsByPlatform?: {
              /** Format: uri */
              platformA?: string;
              /** Format: uri */
              platformB?: string;
            };
          };
          notes?: string;
          priority?: number;
          /** @enum {string} */
          platformBPostFormat?: 'reel' | 'post';
          skipApproval?: boolean;
          contentGroupIds?: string[];
          slides?: {
            image: string;
            textElements: {
              content: string;
              style: {
                /**
                 * @default none
                 * @enum {string}
                 */
                backgroundColor?: 'none' | 'black' | 'white' | 'red' | 'yellow' | 'blue';
                /**
                 * @default white
                 * @enum {string}
                 */
                textColor?: 'white' | 'black' | 'red' | 'yellow' | 'blue';
                /** @default 16 */
                fontSize?: number;
                /**
                 * @default normal
                 * @enum {string}
                 */
                fontWeight?: 'normal' | 'bold';
                /**
                 * @default center
                 * @enum {string}
                 */
                textAlign?: 'left' | 'center' | 'right';
                /**
                 * @default stroke
                 * @enum {string}
                 */
                textMode?: 'stroke' | 'background' | 'plain' | 'snapchat';
                /** @default 50 */
                positionX?: number;
                positionY: number;
                /** @default 88 */
                width?: number;
                /** @default 0 */
                padding?: number;
              };
            }[];
            /**
             * @default fill
             * @enum {string}
             */
            imageFit?: 'fit' | 'fill';
            /** @enum {string} */
            role?: 'hook' | 'middle' | 'cta';
          }[];
        };
      };
    };
    responses: {
      /** @description Check a post without creating it (a dry run of createPost) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PostValidation'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  queuePost: {
    parameters: {
      query?: never;
      header?: {
        /** @description Repeat-safe key, kept 24 hours */
        'Idempotency-Key'?: string;
      };
      path: {
        postId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          accountIds: string[];
          caption?: string;
          hashtags?: string[];
          sound?: {
            /** @enum {string} */
            mode: 'trending' | 'original' | 'specific';
            /** Format: uri */
            url?: string;
            urlsByPlatform?: {
              /** Format: uri */
              platformA?: string;
              /** Format: uri */
              platformB?: string;
            };
          };
          notes?: string;
          priority?: number;
          /** @enum {string} */
          platformBPostFormat?: 'reel' | 'post';
          skipApproval?: boolean;
        };
      };
    };
    responses: {
      /** @description Queue an existing post to more accounts */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Post'];
        };
      };
      /** @description Queue an existing post to more accounts */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Post'];
        };
      };
      /** @description Error codes: `invalid_request`, `idempotency_key_mismatch`, `account_not_found` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `post_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `platformB_feed_posts_disabled`, `media_not_ready`, `duplicate_queue_item`, `post_already_published`, `post_not_editable` */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited`, `quota_exceeded` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  getPost: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        postId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Get a post */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Post'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `post_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  cancelPost: {
    parameters: {
      query?: {
        accountId?: string;
      };
      header?: never;
      path: {
        postId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Cancel a post, or one account of it */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            postId: string;
            /** @enum {string} */
            status:
              | 'draft'
              | 'pending_approval'
              | 'queued'
              | 'posting'
              | 'posted'
              | 'partially_posted'
              | 'cancelled'
              | 'processing'
              | 'failed';
            media: {
              /** @enum {string} */
              kind: 'video' | 'image';
              count: number;
              /** Format: uri */
              thumbnailUrl: string | null;
            };
            caption: string | null;
            hashtags: string[];
            sound: {
              /** @enum {string} */
              mode: 'trending' | 'original' | 'specific';
              /** Format: uri */
              url?: string;
              urlsByPlatform?: {
                /** Format: uri */
                platformA?: string;
                /** Format: uri */
                platformB?: string;
              };
            } | null;
            notes: string | null;
            contentGroupIds: string[];
            /** @enum {string} */
            platformBPostFormat: 'reel' | 'post';
            /** Format: date-time */
            createdAt: string;
            accounts: {
              accountId: string;
              username: string;
              /**
               * @description `platformA` is the short-video network, `platformB` the photo and video network
               * @enum {string}
               */
              platform: 'platformA' | 'platformB';
              /** @enum {string} */
              status:
                | 'draft'
                | 'pending_approval'
                | 'queued'
                | 'posting'
                | 'posted'
                | 'partially_posted'
                | 'cancelled'
                | 'processing'
                | 'failed';
              /** Format: date-time */
              queuedAt: string;
              /** Format: date-time */
              approvedAt?: string;
              /** Format: date-time */
              scheduledAfter?: string;
              /** Format: date-time */
              scheduledSlotStart?: string;
              /** Format: date-time */
              postedAt?: string;
              /** Format: uri */
              postUrl?: string;
              /** @description Why the item failed, present when its status is `failed`: the worker’s reason, a media error, or a missed report deadline (nothing is retried on its own; queue the post again for the account to retry) */
              error?: string;
            }[];
            cancellation: {
              cancelled: string[];
              skipped: {
                accountId: string;
                reason: string;
              }[];
            };
          };
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `post_not_found`, `account_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `post_not_cancellable` */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  updatePost: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        postId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          caption?: string;
          hashtags?: string[];
          sound?: {
            /** @enum {string} */
            mode: 'trending' | 'original' | 'specific';
            /** Format: uri */
            url?: string;
            urlsByPlatform?: {
              /** Format: uri */
              platformA?: string;
              /** Format: uri */
              platformB?: string;
            };
          } | null;
          notes?: string | null;
          contentGroupIds?: string[];
          /** @enum {string} */
          platformBPostFormat?: 'reel' | 'post';
        };
      };
    };
    responses: {
      /** @description Update post metadata or content tags */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Post'];
        };
      };
      /** @description Error codes: `invalid_request`, `tag_not_found` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `post_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `post_not_editable`, `platformB_feed_posts_disabled` */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  listPostDeliveries: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        postId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Proof and punctuality of a post's deliveries */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            postId: string;
            /** @description One entry per account the post is queued for, in queue order */
            deliveries: components['schemas']['Delivery'][];
          };
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `post_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  downloadPostMedia: {
    parameters: {
      query: {
        /** @description Expiry, Unix seconds */
        expires: number;
        signature: string;
      };
      header?: never;
      path: {
        postId: string;
        part: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JPEG */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'image/jpeg': string;
        };
      };
      /** @description On local storage, for a request with one byte range (`Range: bytes=…`): those bytes, with Content-Range. Several ranges are answered whole (200). */
      206: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
        };
      };
      /** @description With object storage: a redirect (Location) to a short-lived URL of the bucket serving the bytes */
      302: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `invalid_signature` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `post_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `range_not_satisfiable` */
      416: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  listAccountQueue: {
    parameters: {
      query?: {
        /** @description Page size */
        limit?: number;
        /** @description nextCursor from the previous page */
        cursor?: string;
      };
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description List an account’s queue */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['QueueItem'][];
            /** @description Send back unchanged as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
          };
        };
      };
      /** @description Error codes: `invalid_request`, `invalid_cursor` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `account_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  getPostAnalytics: {
    parameters: {
      query?: {
        /** @description Page size */
        limit?: number;
        /** @description nextCursor from the previous page */
        cursor?: string;
      };
      header?: never;
      path: {
        postId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Get a post’s analytics */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PostAnalytics'];
        };
      };
      /** @description Error codes: `invalid_request`, `invalid_cursor` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `post_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  getAccountAnalytics: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Get an account’s analytics */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AccountAnalytics'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `account_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  listWebhooks: {
    parameters: {
      query?: {
        /** @description Page size */
        limit?: number;
        /** @description nextCursor from the previous page */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description List webhook endpoints */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['WebhookEndpoint'][];
            /** @description Send back unchanged as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
          };
        };
      };
      /** @description Error codes: `invalid_request`, `invalid_cursor` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  createWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Where events are POSTed: https (http only for hosts the operator allows in REMOTE_FETCH_ALLOW); never a private, loopback or link-local address */
          url: string;
          /** @description The event types sent to this endpoint */
          events: (
            | 'upload.ready'
            | 'upload.failed'
            | 'post.created'
            | 'post.item.pending_approval'
            | 'post.item.approved'
            | 'post.item.rejected'
            | 'post.item.released'
            | 'post.item.posted'
            | 'post.item.failed'
            | 'post.item.unconfirmed'
            | 'post.item.cancelled'
            | 'post.status_changed'
            | 'account.status_changed'
            | 'analytics.updated'
          )[];
          description?: string;
        };
      };
    };
    responses: {
      /** @description Create a webhook endpoint */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            webhookId: string;
            url: string;
            description: string;
            events: (
              | 'upload.ready'
              | 'upload.failed'
              | 'post.created'
              | 'post.item.pending_approval'
              | 'post.item.approved'
              | 'post.item.rejected'
              | 'post.item.released'
              | 'post.item.posted'
              | 'post.item.failed'
              | 'post.item.unconfirmed'
              | 'post.item.cancelled'
              | 'post.status_changed'
              | 'account.status_changed'
              | 'analytics.updated'
            )[];
            /**
             * @description `failing` after a failed attempt until the next success; `disabled` by request, on a 410 answer, or after 5 days of failures (pending deliveries then fail)
             * @enum {string}
             */
            status: 'active' | 'failing' | 'disabled';
            disabledReason: string | null;
            /** Format: date-time */
            failingSince: string | null;
            /** Format: date-time */
            lastSuccessAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description The signing secret (`whsec_...`); shown only here and on rotation */
            secret: string;
          };
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `webhook_limit_reached` */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  getWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Get a webhook endpoint */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookEndpoint'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `webhook_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  deleteWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `webhook_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  updateWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Where events are POSTed: https (http only for hosts the operator allows in REMOTE_FETCH_ALLOW); never a private, loopback or link-local address */
          url?: string;
          /** @description The event types sent to this endpoint */
          events?: (
            | 'upload.ready'
            | 'upload.failed'
            | 'post.created'
            | 'post.item.pending_approval'
            | 'post.item.approved'
            | 'post.item.rejected'
            | 'post.item.released'
            | 'post.item.posted'
            | 'post.item.failed'
            | 'post.item.unconfirmed'
            | 'post.item.cancelled'
            | 'post.status_changed'
            | 'account.status_changed'
            | 'analytics.updated'
          )[];
          description?: string;
        };
      };
    };
    responses: {
      /** @description Change a webhook endpoint's URL, event types or description */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookEndpoint'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `webhook_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  disableWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Disable a webhook endpoint (its pending deliveries fail) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookEndpoint'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `webhook_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  enableWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Enable a webhook endpoint again */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookEndpoint'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `webhook_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  rotateWebhookSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Until previousSecretExpiresAt (24 hours) every delivery carries a signature by each secret, so receivers can switch at any time in between */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            webhookId: string;
            /** @description The new signing secret */
            secret: string;
            /** Format: date-time */
            previousSecretExpiresAt: string;
          };
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `webhook_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  sendWebhookTestEvent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Send a test event to the endpoint */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description The test event’s id, sent as `webhook-id`; its attempts are in the log */
            eventId: string;
            /** @description Its delivery to the endpoint */
            deliveryId: string;
          };
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `webhook_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  listWebhookAttempts: {
    parameters: {
      query?: {
        /** @description Page size */
        limit?: number;
        /** @description nextCursor from the previous page */
        cursor?: string;
        eventId?: string;
        outcome?: 'succeeded' | 'failed';
      };
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The delivery log: every attempt, newest first */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['WebhookAttempt'][];
            /** @description Send back unchanged as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
          };
        };
      };
      /** @description Error codes: `invalid_request`, `invalid_cursor` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `webhook_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  listWebhookDeliveries: {
    parameters: {
      query?: {
        /** @description Page size */
        limit?: number;
        /** @description nextCursor from the previous page */
        cursor?: string;
        status?: 'pending' | 'succeeded' | 'failed';
        eventId?: string;
      };
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Each event's delivery to the endpoint and its retry state, newest first */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['WebhookDelivery'][];
            /** @description Send back unchanged as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
          };
        };
      };
      /** @description Error codes: `invalid_request`, `invalid_cursor` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `webhook_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  replayWebhookEvents: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: string;
      };
      cookie?: never;
    };
    /** @description Exactly one of eventId and since */
    requestBody: {
      content: {
        'application/json': {
          /** @description One event (its webhook-id) */
          eventId?: string;
          /**
           * Format: date-time
           * @description Every event of the subscribed types since this time (within 30 days)
           */
          since?: string;
        };
      };
    };
    responses: {
      /** @description Send one event, or every event since a time, to the endpoint again */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Events queued for delivery again */
            replayed: number;
            /** @description true when more than 10,000 events matched: replay again from the last one */
            truncated: boolean;
          };
        };
      };
      /** @description Error codes: `invalid_request`, `event_not_found` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `insufficient_scope` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `webhook_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  workerHeartbeat: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Report in and read this worker’s accounts and open tasks */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            workerId: string;
            name: string;
            timezone: string;
            /** Format: date-time */
            serverTime: string;
            accounts: components['schemas']['WorkerAccount'][];
            openTasks: {
              released: number;
              claimed: number;
            };
          };
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  claimWorkerTasks: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description Send `{}` to claim up to 10 tasks of any account this worker operates. */
    requestBody?: {
      content: {
        'application/json': {
          /** @description Most tasks to claim (default 10) */
          limit?: number;
          /** @description Claim only tasks of this account, one this worker operates */
          accountId?: string;
        };
      };
    };
    responses: {
      /** @description Claim released tasks */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description The tasks claimed now; empty when none wait */
            data: components['schemas']['WorkerTask'][];
          };
        };
      };
      /** @description Error codes: `invalid_request`, `account_not_found` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  listWorkerTasks: {
    parameters: {
      query?: {
        /** @description Page size */
        limit?: number;
        /** @description nextCursor from the previous page */
        cursor?: string;
        /** @description Only tasks waiting for a claim, or only tasks this worker claimed */
        state?: 'released' | 'claimed';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description List this worker’s open tasks */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['WorkerTask'][];
            /** @description Send back unchanged as `cursor` for the next page; null on the last page */
            nextCursor: string | null;
          };
        };
      };
      /** @description Error codes: `invalid_request`, `invalid_cursor` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  getWorkerTask: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        taskId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Get a task */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WorkerTask'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `task_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  reportWorkerTask: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        taskId: string;
      };
      cookie?: never;
    };
    /** @description The outcome of a claimed task: `{ "outcome": "posted", "postUrl", "postedAt"? }` or `{ "outcome": "failed", "reason" }`. */
    requestBody: {
      content: {
        'application/json': {
          /** @enum {string} */
          outcome: 'posted' | 'failed';
          /**
           * Format: uri
           * @description With `posted` (required): where the post is published
           */
          postUrl?: string;
          /**
           * Format: date-time
           * @description With `posted`: when it went out (default: now); not before the release, not in the future
           */
          postedAt?: string;
          /** @description With `failed` (required): why it did not go out */
          reason?: string;
        };
      };
    };
    responses: {
      /** @description Report the outcome of a claimed task */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WorkerTask'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `task_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `task_not_claimed`, `task_already_reported` */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  putWorkerTaskProof: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        taskId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Send a screenshot as proof of the task's post */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WorkerTask'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `task_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `task_not_claimed`, `task_already_reported` */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `file_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `invalid_media_specs` */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  createWorkerTaskAnalytics: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        taskId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Views so far */
          views: number;
          /** @description Likes so far */
          likes: number;
          /** @description Comments so far */
          comments: number;
          /** @description Shares so far */
          shares: number;
          /** @description Saves so far */
          saves: number;
          /**
           * Format: date-time
           * @description When counted (default: now)
           */
          collectedAt?: string;
        };
      };
    };
    responses: {
      /** @description Add an analytics snapshot of a posted task */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AnalyticsSnapshot'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `task_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `task_not_posted` */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  putWorkerAccountStats: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Followers now */
          followers: number;
          /** @description Posts on the account */
          posts: number;
          /** @description Engagement rate of the scanned posts as a percentage (4.25 means 4.25 %), stored rounded to two decimals */
          engagement: number;
          /** @description Views over the scanned posts */
          views: number;
          /** @description Likes over the scanned posts */
          likes: number;
          /** @description Comments over the scanned posts */
          comments: number;
          /** @description How many recent posts the figures cover */
          scannedPosts: number;
          /**
           * @description The account’s status as the worker sees it, reported as by PUT /worker/v1/accounts/{accountId}/status without a reason (prefer that call). `paused` is the company’s and cannot be reported.
           * @enum {string}
           */
          status?: 'warming_up' | 'active' | 'disconnected';
        };
      };
    };
    responses: {
      /** @description Replace the statistics of an account this worker operates */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AccountAnalytics'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `account_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  putWorkerAccountStatus: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        accountId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description `warming_up`: warming the account up; `active`: it can post; `disconnected`: access to it is lost. Releases go to `warming_up` and `active` accounts only.
           * @enum {string}
           */
          status: 'warming_up' | 'active' | 'disconnected';
          /** @description Why, for the company to read (say, why the account is disconnected) */
          reason?: string;
        };
      };
    };
    responses: {
      /** @description Report the status of an account this worker operates */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WorkerAccount'];
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `account_not_found` */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  putWorkerPushSubscription: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description What `PushSubscription.toJSON()` gives in the browser */
    requestBody: {
      content: {
        'application/json': {
          /** @description The push service URL of the subscription (`PushSubscription.endpoint`) */
          endpoint: string;
          /** @description The keys pushes are encrypted with (RFC 8291) */
          keys: {
            /** @description The device’s P-256 public key, base64url (65 bytes) */
            p256dh: string;
            /** @description The device’s authentication secret, base64url (16 bytes) */
            auth: string;
          };
          /** @description When the push service ends the subscription (ms since the epoch), if it says */
          expirationTime?: number | null;
        };
      };
    };
    responses: {
      /** @description Register a device for pushes */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description The push service URL of the subscription (`PushSubscription.endpoint`) */
            endpoint: string;
            expirationTime: number | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
          };
        };
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  deleteWorkerPushSubscription: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description The subscription to remove: its JSON, or only its `endpoint` */
    requestBody: {
      content: {
        'application/json': {
          /** @description The push service URL of the subscription (`PushSubscription.endpoint`) */
          endpoint: string;
          keys?: {
            p256dh: string;
            auth: string;
          };
          expirationTime?: number | null;
        };
      };
    };
    responses: {
      /** @description Removed, or never registered */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Error codes: `invalid_request` */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unauthorized` */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `request_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `unsupported_media_type` */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
      /** @description Error codes: `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorEnvelope'];
        };
      };
    };
  };
  webhook_upload_ready: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id: the same on every retry and replay, so receivers dedupe by it */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` under the endpoint's secret; during a rotation one signature per secret, space-separated */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'upload.ready';
          /**
           * Format: date-time
           * @description When the change happened
           */
          timestamp: string;
          data: {
            uploadId: string;
            /** @enum {string} */
            kind: 'video' | 'image';
            /** @enum {string} */
            status: 'ready' | 'failed';
            /** @description Why the upload failed; null when ready */
            error: string | null;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx answer is success; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the endpoint is disabled at once */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_upload_failed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id: the same on every retry and replay, so receivers dedupe by it */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` under the endpoint's secret; during a rotation one signature per secret, space-separated */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'upload.failed';
          /**
           * Format: date-time
           * @description When the change happened
           */
          timestamp: string;
          data: {
            uploadId: string;
            /** @enum {string} */
            kind: 'video' | 'image';
            /** @enum {string} */
            status: 'ready' | 'failed';
            /** @description Why the upload failed; null when ready */
            error: string | null;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx answer is success; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the endpoint is disabled at once */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_post_created: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id: the same on every retry and replay, so receivers dedupe by it */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` under the endpoint's secret; during a rotation one signature per secret, space-separated */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'post.created';
          /**
           * Format: date-time
           * @description When the change happened
           */
          timestamp: string;
          data: {
            postId: string;
            /** @enum {string} */
            status:
              | 'draft'
              | 'pending_approval'
              | 'queued'
              | 'posting'
              | 'posted'
              | 'partially_posted'
              | 'cancelled'
              | 'processing'
              | 'failed';
            /** @description One queue item per target account; empty for a draft */
            items: {
              queueItemId: string;
              accountId: string;
              /** @enum {string} */
              status:
                | 'processing'
                | 'pending_approval'
                | 'queued'
                | 'posting'
                | 'posted'
                | 'failed'
                | 'cancelled';
            }[];
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx answer is success; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the endpoint is disabled at once */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_post_item_pending_approval: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id: the same on every retry and replay, so receivers dedupe by it */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` under the endpoint's secret; during a rotation one signature per secret, space-separated */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'post.item.pending_approval';
          /**
           * Format: date-time
           * @description When the change happened
           */
          timestamp: string;
          data: {
            postId: string;
            queueItemId: string;
            accountId: string;
            /**
             * @description The item's status after the change
             * @enum {string}
             */
            status:
              | 'processing'
              | 'pending_approval'
              | 'queued'
              | 'posting'
              | 'posted'
              | 'failed'
              | 'cancelled';
            /** @description Where it was published, once posted */
            postUrl: string | null;
            /** @description Why it failed, was rejected or was cancelled, when known */
            reason: string | null;
            /** @description With `post.item.posted` only: its proof of punctuality (GET /v2/posts/{postId}/deliveries has the rest) */
            delivery?: {
              /** Format: date-time */
              releasedAt: string;
              /** Format: date-time */
              claimedAt: string | null;
              /**
               * Format: date-time
               * @description When it went out, as the worker reported
               */
              postedAt: string;
              /**
               * Format: date-time
               * @description When the slot it was released into opened
               */
              slotStart: string | null;
              /** @description Posted within the grace after its slot opened */
              onTime: boolean;
            };
            /** @description With `post.item.rejected` only: who rejected the item, when and why */
            rejection?: {
              /** @description Why the reviewer rejected it, as they wrote it (1-500 characters); null when rejected without one (the admin CLI) */
              reason: string | null;
              /** @description Who rejected it */
              rejectedBy: {
                /** @description The dashboard user; null for the operator */
                userId: string | null;
                /** @description The dashboard user's email; null for the operator */
                email: string | null;
              };
              /** Format: date-time */
              rejectedAt: string;
            };
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx answer is success; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the endpoint is disabled at once */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_post_item_approved: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id: the same on every retry and replay, so receivers dedupe by it */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` under the endpoint's secret; during a rotation one signature per secret, space-separated */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'post.item.approved';
          /**
           * Format: date-time
           * @description When the change happened
           */
          timestamp: string;
          data: {
            postId: string;
            queueItemId: string;
            accountId: string;
            /**
             * @description The item's status after the change
             * @enum {string}
             */
            status:
              | 'processing'
              | 'pending_approval'
              | 'queued'
              | 'posting'
              | 'posted'
              | 'failed'
              | 'cancelled';
            /** @description Where it was published, once posted */
            postUrl: string | null;
            /** @description Why it failed, was rejected or was cancelled, when known */
            reason: string | null;
            /** @description With `post.item.posted` only: its proof of punctuality (GET /v2/posts/{postId}/deliveries has the rest) */
            delivery?: {
              /** Format: date-time */
              releasedAt: string;
              /** Format: date-time */
              claimedAt: string | null;
              /**
               * Format: date-time
               * @description When it went out, as the worker reported
               */
              postedAt: string;
              /**
               * Format: date-time
               * @description When the slot it was released into opened
               */
              slotStart: string | null;
              /** @description Posted within the grace after its slot opened */
              onTime: boolean;
            };
            /** @description With `post.item.rejected` only: who rejected the item, when and why */
            rejection?: {
              /** @description Why the reviewer rejected it, as they wrote it (1-500 characters); null when rejected without one (the admin CLI) */
              reason: string | null;
              /** @description Who rejected it */
              rejectedBy: {
                /** @description The dashboard user; null for the operator */
                userId: string | null;
                /** @description The dashboard user's email; null for the operator */
                email: string | null;
              };
              /** Format: date-time */
              rejectedAt: string;
            };
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx answer is success; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the endpoint is disabled at once */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_post_item_rejected: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id: the same on every retry and replay, so receivers dedupe by it */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` under the endpoint's secret; during a rotation one signature per secret, space-separated */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'post.item.rejected';
          /**
           * Format: date-time
           * @description When the change happened
           */
          timestamp: string;
          data: {
            postId: string;
            queueItemId: string;
            accountId: string;
            /**
             * @description The item's status after the change
             * @enum {string}
             */
            status:
              | 'processing'
              | 'pending_approval'
              | 'queued'
              | 'posting'
              | 'posted'
              | 'failed'
              | 'cancelled';
            /** @description Where it was published, once posted */
            postUrl: string | null;
            /** @description Why it failed, was rejected or was cancelled, when known */
            reason: string | null;
            /** @description With `post.item.posted` only: its proof of punctuality (GET /v2/posts/{postId}/deliveries has the rest) */
            delivery?: {
              /** Format: date-time */
              releasedAt: string;
              /** Format: date-time */
              claimedAt: string | null;
              /**
               * Format: date-time
               * @description When it went out, as the worker reported
               */
              postedAt: string;
              /**
               * Format: date-time
               * @description When the slot it was released into opened
               */
              slotStart: string | null;
              /** @description Posted within the grace after its slot opened */
              onTime: boolean;
            };
            /** @description With `post.item.rejected` only: who rejected the item, when and why */
            rejection?: {
              /** @description Why the reviewer rejected it, as they wrote it (1-500 characters); null when rejected without one (the admin CLI) */
              reason: string | null;
              /** @description Who rejected it */
              rejectedBy: {
                /** @description The dashboard user; null for the operator */
                userId: string | null;
                /** @description The dashboard user's email; null for the operator */
                email: string | null;
              };
              /** Format: date-time */
              rejectedAt: string;
            };
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx answer is success; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the endpoint is disabled at once */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_post_item_released: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id: the same on every retry and replay, so receivers dedupe by it */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` under the endpoint's secret; during a rotation one signature per secret, space-separated */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'post.item.released';
          /**
           * Format: date-time
           * @description When the change happened
           */
          timestamp: string;
          data: {
            postId: string;
            queueItemId: string;
            accountId: string;
            /**
             * @description The item's status after the change
             * @enum {string}
             */
            status:
              | 'processing'
              | 'pending_approval'
              | 'queued'
              | 'posting'
              | 'posted'
              | 'failed'
              | 'cancelled';
            /** @description Where it was published, once posted */
            postUrl: string | null;
            /** @description Why it failed, was rejected or was cancelled, when known */
            reason: string | null;
            /** @description With `post.item.posted` only: its proof of punctuality (GET /v2/posts/{postId}/deliveries has the rest) */
            delivery?: {
              /** Format: date-time */
              releasedAt: string;
              /** Format: date-time */
              claimedAt: string | null;
              /**
               * Format: date-time
               * @description When it went out, as the worker reported
               */
              postedAt: string;
              /**
               * Format: date-time
               * @description When the slot it was released into opened
               */
              slotStart: string | null;
              /** @description Posted within the grace after its slot opened */
              onTime: boolean;
            };
            /** @description With `post.item.rejected` only: who rejected the item, when and why */
            rejection?: {
              /** @description Why the reviewer rejected it, as they wrote it (1-500 characters); null when rejected without one (the admin CLI) */
              reason: string | null;
              /** @description Who rejected it */
              rejectedBy: {
                /** @description The dashboard user; null for the operator */
                userId: string | null;
                /** @description The dashboard user's email; null for the operator */
                email: string | null;
              };
              /** Format: date-time */
              rejectedAt: string;
            };
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx answer is success; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the endpoint is disabled at once */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_post_item_posted: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id: the same on every retry and replay, so receivers dedupe by it */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` under the endpoint's secret; during a rotation one signature per secret, space-separated */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'post.item.posted';
          /**
           * Format: date-time
           * @description When the change happened
           */
          timestamp: string;
          data: {
            postId: string;
            queueItemId: string;
            accountId: string;
            /**
             * @description The item's status after the change
             * @enum {string}
             */
            status:
              | 'processing'
              | 'pending_approval'
              | 'queued'
              | 'posting'
              | 'posted'
              | 'failed'
              | 'cancelled';
            /** @description Where it was published, once posted */
            postUrl: string | null;
            /** @description Why it failed, was rejected or was cancelled, when known */
            reason: string | null;
            /** @description With `post.item.posted` only: its proof of punctuality (GET /v2/posts/{postId}/deliveries has the rest) */
            delivery?: {
              /** Format: date-time */
              releasedAt: string;
              /** Format: date-time */
              claimedAt: string | null;
              /**
               * Format: date-time
               * @description When it went out, as the worker reported
               */
              postedAt: string;
              /**
               * Format: date-time
               * @description When the slot it was released into opened
               */
              slotStart: string | null;
              /** @description Posted within the grace after its slot opened */
              onTime: boolean;
            };
            /** @description With `post.item.rejected` only: who rejected the item, when and why */
            rejection?: {
              /** @description Why the reviewer rejected it, as they wrote it (1-500 characters); null when rejected without one (the admin CLI) */
              reason: string | null;
              /** @description Who rejected it */
              rejectedBy: {
                /** @description The dashboard user; null for the operator */
                userId: string | null;
                /** @description The dashboard user's email; null for the operator */
                email: string | null;
              };
              /** Format: date-time */
              rejectedAt: string;
            };
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx answer is success; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the endpoint is disabled at once */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_post_item_failed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id: the same on every retry and replay, so receivers dedupe by it */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` under the endpoint's secret; during a rotation one signature per secret, space-separated */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'post.item.failed';
          /**
           * Format: date-time
           * @description When the change happened
           */
          timestamp: string;
          data: {
            postId: string;
            queueItemId: string;
            accountId: string;
            /**
             * @description The item's status after the change
             * @enum {string}
             */
            status:
              | 'processing'
              | 'pending_approval'
              | 'queued'
              | 'posting'
              | 'posted'
              | 'failed'
              | 'cancelled';
            /** @description Where it was published, once posted */
            postUrl: string | null;
            /** @description Why it failed, was rejected or was cancelled, when known */
            reason: string | null;
            /** @description With `post.item.posted` only: its proof of punctuality (GET /v2/posts/{postId}/deliveries has the rest) */
            delivery?: {
              /** Format: date-time */
              releasedAt: string;
              /** Format: date-time */
              claimedAt: string | null;
              /**
               * Format: date-time
               * @description When it went out, as the worker reported
               */
              postedAt: string;
              /**
               * Format: date-time
               * @description When the slot it was released into opened
               */
              slotStart: string | null;
              /** @description Posted within the grace after its slot opened */
              onTime: boolean;
            };
            /** @description With `post.item.rejected` only: who rejected the item, when and why */
            rejection?: {
              /** @description Why the reviewer rejected it, as they wrote it (1-500 characters); null when rejected without one (the admin CLI) */
              reason: string | null;
              /** @description Who rejected it */
              rejectedBy: {
                /** @description The dashboard user; null for the operator */
                userId: string | null;
                /** @description The dashboard user's email; null for the operator */
                email: string | null;
              };
              /** Format: date-time */
              rejectedAt: string;
            };
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx answer is success; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the endpoint is disabled at once */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_post_item_unconfirmed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id: the same on every retry and replay, so receivers dedupe by it */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` under the endpoint's secret; during a rotation one signature per secret, space-separated */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'post.item.unconfirmed';
          /**
           * Format: date-time
           * @description When the change happened
           */
          timestamp: string;
          data: {
            postId: string;
            queueItemId: string;
            accountId: string;
            /**
             * @description The item's status after the change
             * @enum {string}
             */
            status:
              | 'processing'
              | 'pending_approval'
              | 'queued'
              | 'posting'
              | 'posted'
              | 'failed'
              | 'cancelled';
            /** @description Where it was published, once posted */
            postUrl: string | null;
            /** @description Why it failed, was rejected or was cancelled, when known */
            reason: string | null;
            /** @description With `post.item.posted` only: its proof of punctuality (GET /v2/posts/{postId}/deliveries has the rest) */
            delivery?: {
              /** Format: date-time */
              releasedAt: string;
              /** Format: date-time */
              claimedAt: string | null;
              /**
               * Format: date-time
               * @description When it went out, as the worker reported
               */
              postedAt: string;
              /**
               * Format: date-time
               * @description When the slot it was released into opened
               */
              slotStart: string | null;
              /** @description Posted within the grace after its slot opened */
              onTime: boolean;
            };
            /** @description With `post.item.rejected` only: who rejected the item, when and why */
            rejection?: {
              /** @description Why the reviewer rejected it, as they wrote it (1-500 characters); null when rejected without one (the admin CLI) */
              reason: string | null;
              /** @description Who rejected it */
              rejectedBy: {
                /** @description The dashboard user; null for the operator */
                userId: string | null;
                /** @description The dashboard user's email; null for the operator */
                email: string | null;
              };
              /** Format: date-time */
              rejectedAt: string;
            };
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx answer is success; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the endpoint is disabled at once */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_post_item_cancelled: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id: the same on every retry and replay, so receivers dedupe by it */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` under the endpoint's secret; during a rotation one signature per secret, space-separated */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'post.item.cancelled';
          /**
           * Format: date-time
           * @description When the change happened
           */
          timestamp: string;
          data: {
            postId: string;
            queueItemId: string;
            accountId: string;
            /**
             * @description The item's status after the change
             * @enum {string}
             */
            status:
              | 'processing'
              | 'pending_approval'
              | 'queued'
              | 'posting'
              | 'posted'
              | 'failed'
              | 'cancelled';
            /** @description Where it was published, once posted */
            postUrl: string | null;
            /** @description Why it failed, was rejected or was cancelled, when known */
            reason: string | null;
            /** @description With `post.item.posted` only: its proof of punctuality (GET /v2/posts/{postId}/deliveries has the rest) */
            delivery?: {
              /** Format: date-time */
              releasedAt: string;
              /** Format: date-time */
              claimedAt: string | null;
              /**
               * Format: date-time
               * @description When it went out, as the worker reported
               */
              postedAt: string;
              /**
               * Format: date-time
               * @description When the slot it was released into opened
               */
              slotStart: string | null;
              /** @description Posted within the grace after its slot opened */
              onTime: boolean;
            };
            /** @description With `post.item.rejected` only: who rejected the item, when and why */
            rejection?: {
              /** @description Why the reviewer rejected it, as they wrote it (1-500 characters); null when rejected without one (the admin CLI) */
              reason: string | null;
              /** @description Who rejected it */
              rejectedBy: {
                /** @description The dashboard user; null for the operator */
                userId: string | null;
                /** @description The dashboard user's email; null for the operator */
                email: string | null;
              };
              /** Format: date-time */
              rejectedAt: string;
            };
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx answer is success; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the endpoint is disabled at once */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_post_status_changed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id: the same on every retry and replay, so receivers dedupe by it */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` under the endpoint's secret; during a rotation one signature per secret, space-separated */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'post.status_changed';
          /**
           * Format: date-time
           * @description When the change happened
           */
          timestamp: string;
          data: {
            postId: string;
            /** @enum {string} */
            status:
              | 'draft'
              | 'pending_approval'
              | 'queued'
              | 'posting'
              | 'posted'
              | 'partially_posted'
              | 'cancelled'
              | 'processing'
              | 'failed';
            /** @enum {string} */
            previousStatus:
              | 'draft'
              | 'pending_approval'
              | 'queued'
              | 'posting'
              | 'posted'
              | 'partially_posted'
              | 'cancelled'
              | 'processing'
              | 'failed';
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx answer is success; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the endpoint is disabled at once */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_account_status_changed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id: the same on every retry and replay, so receivers dedupe by it */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` under the endpoint's secret; during a rotation one signature per secret, space-separated */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'account.status_changed';
          /**
           * Format: date-time
           * @description When the change happened
           */
          timestamp: string;
          data: {
            accountId: string;
            /** @description The effective status after the change */
            status: string;
            previousStatus: string | null;
            /** @enum {string} */
            source: 'worker' | 'company' | 'system';
            reason: string | null;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx answer is success; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the endpoint is disabled at once */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_analytics_updated: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id: the same on every retry and replay, so receivers dedupe by it */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` under the endpoint's secret; during a rotation one signature per secret, space-separated */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'analytics.updated';
          /**
           * Format: date-time
           * @description When the change happened
           */
          timestamp: string;
          /** @description Read the figures with GET /v2/posts/{postId}/analytics */
          data: {
            postId: string;
            /** Format: date-time */
            updatedAt: string;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx answer is success; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the endpoint is disabled at once */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_webhook_test: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id: the same on every retry and replay, so receivers dedupe by it */
        'webhook-id': string;
        /** @description Unix seconds when this attempt was signed */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` under the endpoint's secret; during a rotation one signature per secret, space-separated */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          type: 'webhook.test';
          /**
           * Format: date-time
           * @description When the change happened
           */
          timestamp: string;
          /** @description Sent on request only (POST /v2/webhooks/{webhookId}/test or the dashboard), to that endpoint whatever its event types; nothing changed in Slotline */
          data: {
            /** @description The endpoint the test was sent to */
            webhookId: string;
            /** @description A note for whoever reads the receiver’s log */
            message: string;
          };
        };
      };
    };
    responses: {
      /** @description Any 2xx answer is success; anything else is retried */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone: the endpoint is disabled at once */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
}
