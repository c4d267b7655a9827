// Row types of the tables of companies and their content: accounts, media, posts, queue
// items, releases, analytics, webhooks, settings and media jobs (types.ts has the
// conventions and the Database that names them).

export interface CompaniesTable {
  id: string;
  name: string;
  description: string;
  website: string;
  plan: string;
  platformb_feed_posts: number;
  default_timezone: string | null;
  schedule_windows: string | null;
  created_at: string;
  updated_at: string;
  /** When an operator suspended the company (its keys and users are refused); null when not. */
  suspended_at: string | null;
  /** Minutes before a waiting item's window that its approvers are reminded. */
  approval_lead_minutes: number;
}

export interface ApiKeysTable {
  id: string;
  company_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  scopes: string;
  created_at: string;
  revoked_at: string | null;
  /** When a request last used the key, to the flush of key-use.jobs.ts. */
  last_used_at: string | null;
}

export interface AccountsTable {
  id: string;
  company_id: string;
  platform: string;
  username: string;
  username_key: string;
  display_name: string;
  bio: string;
  profile_picture_url: string;
  bio_url: string | null;
  warmup_search_terms: string;
  niche: string;
  status: string;
  timezone: string;
  followers: number;
  schedule_windows: string | null;
  last_post_at: string | null;
  created_at: string;
  updated_at: string;
  /** The worker operating the account; its timezone is the account's. */
  worker_id: string | null;
  /**
   * Lifecycle (DECISIONS 7): `status` is the effective status, `paused` while `paused_at` is
   * set and `worker_status` otherwise; `worker_status` is what the worker last reported
   * (`pending_setup` until its first report), with its reason and time.
   */
  worker_status: string;
  worker_reason: string | null;
  reported_at: string | null;
  paused_at: string | null;
  /** When the effective status began. */
  status_since: string;
}

/** One change of an account's status (DECISIONS 7), kept forever. */
export interface AccountStatusEventsTable {
  id: string;
  company_id: string;
  account_id: string;
  /** 1, 2, ... per account, in the order of the changes. */
  seq: number;
  /** The effective status after the change, and the worker's status it rests on. */
  status: string;
  reported_status: string;
  source: string;
  reason: string | null;
  at: string;
}

export interface ContentTagsTable {
  id: string;
  company_id: string;
  name: string;
  name_key: string;
  color: string;
  archived: number;
  created_at: string;
  updated_at: string;
}

export interface UsageCountersTable {
  company_id: string;
  metric: string;
  period: string;
  count: number;
}

export interface ImageFoldersTable {
  id: string;
  company_id: string;
  name: string;
  created_at: string;
}

export interface ImagesTable {
  id: string;
  company_id: string;
  folder_id: string;
  label: string;
  description: string;
  tags: string;
  width: number;
  height: number;
  blob_key: string;
  content_type: string;
  size_bytes: number;
  created_at: string;
}

export interface ImagePacksTable {
  id: string;
  company_id: string;
  folder_id: string;
  name: string;
  description: string;
  color: string;
  image_ids: string;
  image_fit: string;
  use_once: number;
  created_at: string;
}

export interface UploadsTable {
  id: string;
  company_id: string;
  kind: string;
  status: string;
  source: string;
  source_url: string | null;
  filename: string;
  content_type: string;
  size_bytes: number | null;
  stored_bytes: number | null;
  blob_key: string;
  /** SHA-256 (hex) of the content at blob_key, recorded with it. */
  sha256: string | null;
  thumbnail_key: string | null;
  /** Why a thumbnail could not be made for this ready upload. */
  thumbnail_error: string | null;
  error: string | null;
  media_info: string | null;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface PostsTable {
  id: string;
  company_id: string;
  status: string;
  media_kind: string;
  media_upload_ids: string;
  slides: string | null;
  media_state: string;
  media_keys: string | null;
  media_error: string | null;
  thumbnail_upload_id: string | null;
  thumbnail_key: string | null;
  caption: string | null;
  hashtags: string;
  sound: string | null;
  notes: string | null;
  platformb_post_format: string;
  template_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface PostContentGroupsTable {
  post_id: string;
  company_id: string;
  group_id: string;
  created_at: string;
}

export interface QueueItemsTable {
  id: string;
  company_id: string;
  post_id: string;
  account_id: string;
  status: string;
  skip_approval: number;
  priority: number;
  queued_at: string;
  approved_at: string | null;
  scheduled_after: string | null;
  released_at: string | null;
  posted_at: string | null;
  post_url: string | null;
  failure_reason: string | null;
  updated_at: string;
  /** When the account's worker claimed the released item, and which worker. */
  claimed_at: string | null;
  claimed_by: string | null;
  /** Who approved the item: `user:<id>` from the dashboard, `operator` from the CLI. */
  approved_by: string | null;
  /** When the worker's final report arrived (posted or failed). */
  reported_at: string | null;
  /** 1 when the item was reported posted within the grace after its slot's start, else 0. */
  on_time: number | null;
  /** The screenshot the worker sent as proof of the post (an image upload). */
  proof_upload_id: string | null;
  /** Why the item was rejected in review (1-500 characters), when a reason was given. */
  reject_reason: string | null;
  /** Who rejected the item: `user:<id>` from the dashboard, `operator` from the CLI. */
  rejected_by: string | null;
  /** When the item was rejected. */
  rejected_at: string | null;
}

export interface IdempotencyKeysTable {
  company_id: string;
  operation: string;
  key: string;
  request_hash: string;
  post_id: string;
  created_at: string;
  expires_at: string;
}

/** One analytics snapshot of a posted item (SPEC 2.7 `history`). Counters may be bigint text. */
export interface PostAnalyticsTable {
  id: string;
  company_id: string;
  post_id: string;
  queue_item_id: string;
  account_id: string;
  platform: string;
  post_url: string | null;
  views: number | string;
  likes: number | string;
  comments: number | string;
  shares: number | string;
  saves: number | string;
  collected_at: string;
}

/** The latest statistics of an account (SPEC 2.8); `engagement` is a percentage. */
export interface AccountStatsTable {
  account_id: string;
  company_id: string;
  followers: number | string;
  posts: number | string;
  engagement: number;
  views: number | string;
  likes: number | string;
  comments: number | string;
  scanned_posts: number | string;
  updated_at: string;
}

export interface ReleasesTable {
  account_id: string;
  local_date: string;
  slot_label: string;
  company_id: string;
  queue_item_id: string;
  slot_kind: string;
  ready_at: string;
  released_at: string;
  /** Start of the window or make-up slot released into; null for releases made before. */
  slot_start: string | null;
}

export interface WebhookEndpointsTable {
  id: string;
  company_id: string;
  url: string;
  description: string;
  /** JSON array of event types. */
  event_types: string;
  /** Sealed (lib/seal.ts). */
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  disabled_at: string | null;
  disabled_reason: string | null;
  failing_since: string | null;
  last_success_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The outbox: one row per event, written in the transaction of its change. */
export interface WebhookEventsTable {
  id: string;
  company_id: string;
  type: string;
  /** JSON of the payload's `data`. */
  data: string;
  created_at: string;
  available_at: string;
  fanned_out_at: string | null;
  coalesce_key: string | null;
}

export interface WebhookDeliveriesTable {
  id: string;
  company_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: string;
  trigger: string;
  attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_response_status: number | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  company_id: string;
  endpoint_id: string;
  delivery_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  trigger: string;
  started_at: string;
  duration_ms: number;
  outcome: string;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
}

export interface ServerSettingsTable {
  key: string;
  value: string;
}

/**
 * Delivery counters of one subject (`company`, `account` or `worker`) for one UTC day of
 * release; `lat_<i>` count posted items per release-to-posted bucket and `claim_lat_<i>`
 * claimed tasks per release-to-claim bucket (delivery-figures.rules.ts).
 */
export interface DeliveryDaysTable {
  scope: string;
  scope_id: string;
  day: string;
  company_id: string;
  posted: number;
  on_time: number;
  failed: number;
  unconfirmed: number;
  missed: number;
  [bucket: `lat_${number}`]: number;
  [bucket: `claim_lat_${number}`]: number;
}

/**
 * Media work waiting to be done or under way (a carousel's render, an upload's thumbnail):
 * one row per kind and subject, claimed with a lease (dispatch/media-loop.ts).
 */
export interface MediaJobsTable {
  kind: string;
  /** The post (render) or upload (thumbnail) the job serves. */
  subject_id: string;
  company_id: string;
  created_at: string;
  /** Not claimed before this (a retry's backoff). */
  due_at: string;
  /** Claims so far, including the one under way. */
  attempts: number;
  /** The process holding the claim, until `lease_until`; null when waiting. */
  lease_owner: string | null;
  lease_until: string | null;
  /** What the last failed attempt said, for the log and the final failure. */
  last_error: string | null;
}
