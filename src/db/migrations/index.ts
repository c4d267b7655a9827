import type { Migration, MigrationProvider } from 'kysely';
import { foundation } from './0001-foundation.ts';
import { uploads } from './0002-uploads.ts';
import { posts } from './0003-posts.ts';
import { analytics } from './0004-analytics.ts';
import { releases } from './0005-releases.ts';
import { workers } from './0006-workers.ts';
import { uploadContent } from './0007-upload-content.ts';
import { accountLifecycle } from './0008-account-lifecycle.ts';
import { users } from './0009-users.ts';
import { workerSessions } from './0010-worker-sessions.ts';
import { keyLastUsed } from './0011-key-last-used.ts';
import { authNotify } from './0012-auth-notify.ts';
import { webhooks } from './0013-webhooks.ts';
import { uploadDeadlines } from './0014-upload-deadlines.ts';
import { operators } from './0015-operators.ts';
import { deliveries } from './0016-deliveries.ts';
import { workerLinks } from './0017-worker-links.ts';
import { accountStatusIndex } from './0018-account-status-index.ts';
import { rejectReason } from './0019-reject-reason.ts';
import { userTimezone } from './0020-user-timezone.ts';
import { calendarIndexes } from './0021-calendar-indexes.ts';
import { mediaJobs } from './0022-media-jobs.ts';
import { outbox } from './0023-outbox.ts';
import { linkPurpose } from './0024-link-purpose.ts';
import { outboxOrder } from './0025-outbox-order.ts';
import { pushSubscriptions } from './0026-push-subscriptions.ts';
import { chatHooks } from './0027-chat-hooks.ts';
import { notices } from './0028-notices.ts';
import { claimLatency } from './0029-claim-latency.ts';
import { notifyPreferences } from './0030-notify-preferences.ts';

/** Every migration in order; names are never changed once released. */
const ALL: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-uploads': uploads,
  '0003-posts': posts,
  '0004-analytics': analytics,
  '0005-releases': releases,
  '0006-workers': workers,
  '0007-upload-content': uploadContent,
  '0008-account-lifecycle': accountLifecycle,
  '0009-users': users,
  '0010-worker-sessions': workerSessions,
  '0011-key-last-used': keyLastUsed,
  '0012-auth-notify': authNotify,
  '0013-webhooks': webhooks,
  '0014-upload-deadlines': uploadDeadlines,
  '0015-operators': operators,
  '0016-deliveries': deliveries,
  '0017-worker-links': workerLinks,
  '0018-account-status-index': accountStatusIndex,
  '0019-reject-reason': rejectReason,
  '0020-user-timezone': userTimezone,
  '0021-calendar-indexes': calendarIndexes,
  '0022-media-jobs': mediaJobs,
  '0023-outbox': outbox,
  '0024-link-purpose': linkPurpose,
  '0025-outbox-order': outboxOrder,
  '0026-push-subscriptions': pushSubscriptions,
  '0027-chat-hooks': chatHooks,
  '0028-notices': notices,
  '0029-claim-latency': claimLatency,
  '0030-notify-preferences': notifyPreferences,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => ALL,
};
