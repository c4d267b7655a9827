import type { Kysely, Migration } from 'kysely';

// Chat alert hooks: incoming-webhook URLs in the Slack format (Slack, Mattermost, Rocket.Chat)
// that a company, or the operator side (company_id null), sends alerts to. The URL carries
// the receiver's secret, so it is stored sealed (lib/seal.ts) beside a masked form for pages.
// Alerts are rows of the outbox (channel `chat`, recipient the hook's id).
export const chatHooks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('chat_hooks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // The company the hook belongs to; null for the operator side's hooks.
      .addColumn('company_id', 'text')
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('url_sealed', 'text', (c) => c.notNull())
      // The host and the URL's last 4 characters, the only form pages show.
      .addColumn('url_hint', 'text', (c) => c.notNull())
      // The alert kinds the hook receives, a JSON array.
      .addColumn('kinds', 'text', (c) => c.notNull())
      // Set when the receiver said the URL is gone (404, 410); cleared by a delivery.
      .addColumn('failing_since', 'text')
      .addColumn('last_error', 'text')
      .addColumn('last_success_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('chat_hooks_company')
      .on('chat_hooks')
      .columns(['company_id', 'created_at'])
      .execute();
  },
};
