// Seeds many accounts that each have one queued item due for release, written
// straight into the tables with multi-row inserts (thousands of rows a
// second on either database), for the release benchmark and the
// multi-process dispatcher test. The rows are shaped as the API writes them:
// a ready video post to one account, approved (skipApproval) when queued.
// Its row builders also serve tests that write posts straight into the tables.
import type { Insertable } from 'kysely';
import type { AccountsTable, Db, PostsTable, QueueItemsTable } from '../src/db/types.ts';
import { newId } from '../src/lib/ids.ts';

/** Rows per insert: the widest row (posts, 19 columns) binds 9,500 parameters. */
const ROWS = 500;

/**
 * Worker timezones of the seeded accounts, in turn. At DUE_AT each is past its
 * local 08:00 and before local midnight, so every account has an open slot.
 */
export const DUE_TIMEZONES = [
  'UTC',
  'Europe/London',
  'Europe/Berlin',
  'Africa/Cairo',
  'Asia/Dubai',
  'Asia/Kolkata',
  'America/Sao_Paulo',
] as const;

/** A release instant at which every seeded account is due. */
export const DUE_AT = '2026-03-04T12:30:00.000Z';
/** When the seeded items were queued (and approved): a day before DUE_AT. */
export const QUEUED_AT = '2026-03-03T12:00:00.000Z';

export interface DueAccounts {
  accountIds: string[];
  postIds: string[];
  itemIds: string[];
}

/** A ready video post as the API writes it; `fields` change any column. */
export function videoPostRow(
  id: string,
  companyId: string,
  at: string,
  fields: Partial<PostsTable> = {},
): PostsTable {
  return {
    id,
    company_id: companyId,
    status: 'queued',
    media_kind: 'video',
    media_upload_ids: '["upl_x"]',
    slides: null,
    media_state: 'ready',
    media_keys: null,
    media_error: null,
    thumbnail_upload_id: null,
    thumbnail_key: null,
    caption: null,
    hashtags: '[]',
    sound: null,
    notes: null,
    platformb_post_format: 'reel',
    template_id: null,
    created_at: at,
    updated_at: at,
    ...fields,
  };
}

/** A queue item of `postId` for `accountId`, queued at `at`; `fields` change any column. */
export function queueItemRow(
  id: string,
  companyId: string,
  postId: string,
  accountId: string,
  at: string,
  fields: Partial<QueueItemsTable> = {},
): QueueItemsTable {
  return {
    id,
    company_id: companyId,
    post_id: postId,
    account_id: accountId,
    status: 'queued',
    skip_approval: 0,
    priority: 0,
    queued_at: at,
    approved_at: null,
    scheduled_after: null,
    released_at: null,
    posted_at: null,
    post_url: null,
    failure_reason: null,
    updated_at: at,
    claimed_at: null,
    claimed_by: null,
    reported_at: null,
    on_time: null,
    proof_upload_id: null,
    approved_by: null,
    reject_reason: null,
    rejected_by: null,
    rejected_at: null,
    ...fields,
  };
}

/** `n` accounts of the company, each with one queued item ready since QUEUED_AT. */
export async function seedDueAccounts(db: Db, companyId: string, n: number): Promise<DueAccounts> {
  const at = QUEUED_AT;
  const ms = Date.parse(at);
  const out: DueAccounts = { accountIds: [], postIds: [], itemIds: [] };
  for (let start = 0; start < n; start += ROWS) {
    const count = Math.min(ROWS, n - start);
    const accounts: Insertable<AccountsTable>[] = [];
    const posts: Insertable<PostsTable>[] = [];
    const items: Insertable<QueueItemsTable>[] = [];
    for (let i = start; i < start + count; i++) {
      const accountId = newId('acc', ms);
      const postId = newId('pst', ms);
      const itemId = newId('qit', ms);
      const username = `due_${companyId.slice(-6)}_${i}`;
      accounts.push({
        id: accountId,
        company_id: companyId,
        platform: 'platformA',
        username,
        username_key: username,
        display_name: `Due ${i}`,
        bio: 'Benchmark account',
        profile_picture_url: 'https://example.com/p.png',
        bio_url: null,
        warmup_search_terms: JSON.stringify(['one']),
        niche: '',
        status: 'active',
        // Reported active by its worker, so the dispatcher may release to it (DECISIONS 7).
        worker_status: 'active',
        status_since: at,
        timezone: DUE_TIMEZONES[i % DUE_TIMEZONES.length] as string,
        followers: 0,
        schedule_windows: null,
        last_post_at: null,
        created_at: at,
        updated_at: at,
      });
      posts.push(
        videoPostRow(postId, companyId, at, {
          media_upload_ids: JSON.stringify([newId('upl', ms)]),
          caption: `Post ${i}`,
        }),
      );
      items.push(
        queueItemRow(itemId, companyId, postId, accountId, at, {
          skip_approval: 1,
          approved_at: at,
        }),
      );
      out.accountIds.push(accountId);
      out.postIds.push(postId);
      out.itemIds.push(itemId);
    }
    await db.transaction().execute(async (tx) => {
      await tx.insertInto('accounts').values(accounts).execute();
      await tx.insertInto('posts').values(posts).execute();
      await tx.insertInto('queue_items').values(items).execute();
    });
  }
  return out;
}
