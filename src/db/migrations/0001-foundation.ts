import type { Kysely, Migration } from 'kysely';

// Written with the portable schema builder so one migration serves SQLite and PostgreSQL.
export const foundation: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('server_settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('companies')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('website', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('plan', 'text', (c) => c.notNull())
      .addColumn('platformb_feed_posts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('default_timezone', 'text')
      .addColumn('schedule_windows', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('prefix', 'text', (c) => c.notNull().unique())
      .addColumn('key_hash', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema
      .createIndex('api_keys_company')
      .on('api_keys')
      .columns(['company_id'])
      .execute();

    await db.schema
      .createTable('accounts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
      .addColumn('platform', 'text', (c) => c.notNull())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('username_key', 'text', (c) => c.notNull())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('bio', 'text', (c) => c.notNull())
      .addColumn('profile_picture_url', 'text', (c) => c.notNull())
      .addColumn('bio_url', 'text')
      .addColumn('warmup_search_terms', 'text', (c) => c.notNull())
      .addColumn('niche', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('timezone', 'text', (c) => c.notNull())
      .addColumn('followers', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('schedule_windows', 'text')
      .addColumn('last_post_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('accounts_username_unique', ['company_id', 'platform', 'username_key'])
      .execute();
    await db.schema
      .createIndex('accounts_company_page')
      .on('accounts')
      .columns(['company_id', 'created_at', 'id'])
      .execute();

    await db.schema
      .createTable('content_tags')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('color', 'text', (c) => c.notNull())
      .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('content_tags_name_unique', ['company_id', 'name_key'])
      .execute();
    await db.schema
      .createIndex('content_tags_company_page')
      .on('content_tags')
      .columns(['company_id', 'created_at', 'id'])
      .execute();

    await db.schema
      .createTable('usage_counters')
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('metric', 'text', (c) => c.notNull())
      .addColumn('period', 'text', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('usage_counters_pk', ['company_id', 'metric', 'period'])
      .execute();

    await db.schema
      .createTable('image_folders')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('image_folders_company')
      .on('image_folders')
      .columns(['company_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('images')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
      .addColumn('folder_id', 'text', (c) => c.notNull().references('image_folders.id'))
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('tags', 'text', (c) => c.notNull())
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      .addColumn('blob_key', 'text', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('size_bytes', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('images_folder')
      .on('images')
      .columns(['company_id', 'folder_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('image_packs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
      .addColumn('folder_id', 'text', (c) => c.notNull().references('image_folders.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('color', 'text', (c) => c.notNull())
      .addColumn('image_ids', 'text', (c) => c.notNull())
      .addColumn('image_fit', 'text', (c) => c.notNull())
      .addColumn('use_once', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('image_packs_folder')
      .on('image_packs')
      .columns(['company_id', 'folder_id'])
      .execute();
  },
};
