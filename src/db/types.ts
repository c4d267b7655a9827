// Row types of every table. Timestamps are ISO-8601 UTC strings with
// milliseconds in both dialects, so they compare and sort as text; booleans are
// 0/1 integers; lists are JSON text.
import type { Kysely, Transaction } from 'kysely';
import type {
  AccountStatsTable,
  AccountStatusEventsTable,
  AccountsTable,
  ApiKeysTable,
  CompaniesTable,
  ContentTagsTable,
  DeliveryDaysTable,
  IdempotencyKeysTable,
  ImageFoldersTable,
  ImagePacksTable,
  ImagesTable,
  MediaJobsTable,
  PostAnalyticsTable,
  PostContentGroupsTable,
  PostsTable,
  QueueItemsTable,
  ReleasesTable,
  ServerSettingsTable,
  UploadsTable,
  UsageCountersTable,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
  WebhookEventsTable,
} from './content-tables.ts';
import type {
  ActivityLogTable,
  ChatHooksTable,
  NoticeMarksTable,
  NotifyOptInsTable,
  NotifyOptOutsTable,
  NotifyQuietHoursTable,
  OperatorLinksTable,
  OperatorLogTable,
  OperatorRecoveryCodesTable,
  OperatorSessionsTable,
  OperatorsTable,
  OutboxMessagesTable,
  PushSubscriptionsTable,
  SessionsTable,
  SignInAttemptsTable,
  UserLinksTable,
  UsersTable,
  WorkerSessionsTable,
  WorkerSignInLinksTable,
  WorkersTable,
} from './people-tables.ts';

export type * from './content-tables.ts';
export type * from './people-tables.ts';

export interface Database {
  companies: CompaniesTable;
  api_keys: ApiKeysTable;
  accounts: AccountsTable;
  account_status_events: AccountStatusEventsTable;
  content_tags: ContentTagsTable;
  usage_counters: UsageCountersTable;
  image_folders: ImageFoldersTable;
  images: ImagesTable;
  image_packs: ImagePacksTable;
  server_settings: ServerSettingsTable;
  releases: ReleasesTable;
  workers: WorkersTable;
  uploads: UploadsTable;
  posts: PostsTable;
  post_content_groups: PostContentGroupsTable;
  queue_items: QueueItemsTable;
  idempotency_keys: IdempotencyKeysTable;
  post_analytics: PostAnalyticsTable;
  account_stats: AccountStatsTable;
  users: UsersTable;
  sessions: SessionsTable;
  sign_in_attempts: SignInAttemptsTable;
  worker_sessions: WorkerSessionsTable;
  worker_sign_in_links: WorkerSignInLinksTable;
  activity_log: ActivityLogTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  operators: OperatorsTable;
  operator_recovery_codes: OperatorRecoveryCodesTable;
  operator_sessions: OperatorSessionsTable;
  operator_links: OperatorLinksTable;
  user_links: UserLinksTable;
  push_subscriptions: PushSubscriptionsTable;
  operator_log: OperatorLogTable;
  delivery_days: DeliveryDaysTable;
  media_jobs: MediaJobsTable;
  outbox_messages: OutboxMessagesTable;
  chat_hooks: ChatHooksTable;
  notice_marks: NoticeMarksTable;
  notify_opt_outs: NotifyOptOutsTable;
  notify_opt_ins: NotifyOptInsTable;
  notify_quiet_hours: NotifyQuietHoursTable;
}

export type Db = Kysely<Database>;
/** A database handle or an open transaction: repositories accept either. */
export type DbOrTx = Kysely<Database> | Transaction<Database>;
export type Dialect = 'sqlite' | 'postgres';
