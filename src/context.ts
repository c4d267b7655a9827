import type { Access } from './access.ts';
import type { Config } from './config.ts';
import type { Db, DbOrTx } from './db/types.ts';
import type { Clock } from './lib/clock.ts';
import type { MetricsRecorder } from './lib/metrics.ts';
import type { CursorCodec } from './lib/cursor.ts';
import type { Sealer } from './lib/seal.ts';
import type { UrlSigner } from './lib/signing.ts';
import type { BlobStore } from './media/blob-store.ts';
import type { MediaUrls } from './media/media-urls.ts';

/**
 * Work held in memory and written in batches (request counts, key uses). The composition
 * root starts it with the context and stops it when the context closes; each write that
 * fails is reported to the context's error handler, never dropped in silence.
 */
export interface Batcher {
  start(): void;
  /** Writes out what is held now. */
  flush(): Promise<void>;
  /** Stops the timer and writes out what is left. */
  stop(): Promise<void>;
}

/** The daily API request counts (the usage module implements it). */
export interface RequestCounts extends Batcher {
  /** Writes back this process's unused count for the company, so a usage read is exact. */
  settle(companyId: string): Promise<void>;
}

/**
 * Mail is on (the service was given SMTP_URL), and where the links in it lead. Services
 * that write mail take it as `Mailing | null`: null writes none, and every link is then
 * shown to be copied by hand, as the pages say.
 */
export interface Mailing {
  publicUrl: string;
}

/** The application server's VAPID key pair (base64url) and contact, signing every push. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** Something people are told went wrong, written with the change that made it. */
export interface Outcome {
  kind: 'task_failed' | 'task_unconfirmed' | 'account_disconnected';
  companyId: string;
  /** The task (queue item) or the account. */
  subjectId: string;
  /** What makes it one occasion: the task's release, the account's report time. */
  occasion: string;
  /** The worker's words, when it gave some. */
  reason: string | null;
}

/**
 * Writes the notices of outcomes (mail, push, chat, as outbox rows) in the caller's
 * transaction, once per subject and occasion. The modules whose changes are outcomes call
 * it; the dispatcher's notice fan-out implements it, wired by the composition root.
 */
export interface OutcomeNotices {
  tell(tx: DbOrTx, outcomes: readonly Outcome[], at: Date): Promise<void>;
}

/** Everything a route or service needs, built once by the composition root. */
export interface AppContext {
  db: Db;
  config: Config;
  clock: Clock;
  blobs: BlobStore;
  signer: UrlSigner;
  /** Seals secrets the service reads back (webhook signing secrets). */
  sealer: Sealer;
  /** Download URLs of stored media: presigned by the bucket, or signed by the service. */
  media: MediaUrls;
  cursors: CursorCodec;
  /** Counts API requests against the daily cap. */
  meter: RequestCounts;
  /** Last uses of API keys, written in batches. */
  keyUse: Batcher;
  /** Key and worker-token verification and request metering, for the auth hook. */
  access: Access;
  /** Counters and timings for monitoring; a no-op unless the process exposes metrics. */
  metrics: MetricsRecorder;
  /** Mail is written to the outbox (SMTP_URL is set); null: links are copied by hand. */
  mailing: Mailing | null;
  /** Signs Web Push requests; its public key is what browsers subscribe with. */
  vapid: VapidKeys;
  /** Tells people of outcomes; without it (a bare context in a test), nobody is told. */
  outcomes?: OutcomeNotices;
}
