import type { Kysely, Migration } from 'kysely';

export const posts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('posts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
      // Kept equal to the status derived from the post's items (DECISIONS 2), in the
      // same transaction as every item change, so lists can filter on it.
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('media_kind', 'text', (c) => c.notNull())
      .addColumn('media_upload_ids', 'text', (c) => c.notNull())
      .addColumn('slides', 'text')
      .addColumn('media_state', 'text', (c) => c.notNull())
      .addColumn('media_keys', 'text')
      .addColumn('media_error', 'text')
      .addColumn('thumbnail_upload_id', 'text')
      .addColumn('thumbnail_key', 'text')
      .addColumn('caption', 'text')
      .addColumn('hashtags', 'text', (c) => c.notNull())
      .addColumn('sound', 'text')
      .addColumn('notes', 'text')
      .addColumn('platformb_post_format', 'text', (c) => c.notNull())
      .addColumn('template_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('posts_company_page')
      .on('posts')
      .columns(['company_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('posts_company_status')
      .on('posts')
      .columns(['company_id', 'status', 'created_at', 'id'])
      .execute();

    await db.schema
      .createTable('post_content_groups')
      .addColumn('post_id', 'text', (c) => c.notNull().references('posts.id'))
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('group_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('post_content_groups_pk', ['post_id', 'group_id'])
      .execute();
    await db.schema
      .createIndex('post_content_groups_group')
      .on('post_content_groups')
      .columns(['company_id', 'group_id', 'post_id'])
      .execute();

    await db.schema
      .createTable('queue_items')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('post_id', 'text', (c) => c.notNull().references('posts.id'))
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('skip_approval', 'integer', (c) => c.notNull())
      .addColumn('priority', 'integer', (c) => c.notNull())
      .addColumn('queued_at', 'text', (c) => c.notNull())
      .addColumn('approved_at', 'text')
      .addColumn('scheduled_after', 'text')
      .addColumn('released_at', 'text')
      .addColumn('posted_at', 'text')
      .addColumn('post_url', 'text')
      .addColumn('failure_reason', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('queue_items_post_account', ['post_id', 'account_id'])
      .execute();
    await db.schema
      .createIndex('queue_items_account')
      .on('queue_items')
      .columns(['account_id', 'status', 'priority', 'queued_at'])
      .execute();
    await db.schema
      .createIndex('queue_items_company_account')
      .on('queue_items')
      .columns(['company_id', 'account_id', 'post_id'])
      .execute();

    await db.schema
      .createTable('idempotency_keys')
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('operation', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('post_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['company_id', 'operation', 'key'])
      .execute();
  },
};
