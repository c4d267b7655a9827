// The status vocabulary of posts and their queue items (SPEC 3, DECISIONS 2), below every
// module: the items module moves items between them and derives a post's status, while
// response schemas, the webhook event catalog and metrics only name them.

export const POST_STATUSES = [
  'draft',
  'pending_approval',
  'queued',
  'posting',
  'posted',
  'partially_posted',
  'cancelled',
  'processing',
  'failed',
] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

export const ITEM_STATUSES = [
  'processing',
  'pending_approval',
  'queued',
  'posting',
  'posted',
  'failed',
  'cancelled',
] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];
