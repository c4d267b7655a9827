// Opens storage and builds the shared context: used by the server, the CLI and tests.
import { join } from 'node:path';
import pino from 'pino';
import type { Config } from './config.ts';
import type { Access } from './access.ts';
import type { AppContext } from './context.ts';
import { connect, migrate, type PoolStats } from './db/connect.ts';
import type { Db } from './db/types.ts';
import { loadSecret } from './db/secret.ts';
import { Sealer } from './lib/seal.ts';
import { CursorCodec } from './lib/cursor.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { hmac } from './lib/crypto.ts';
import { noopMetrics, type MetricsRecorder } from './lib/metrics.ts';
import { UrlSigner } from './lib/signing.ts';
import { LocalBlobStore, type BlobStore } from './media/blob-store.ts';
import { MediaUrls } from './media/media-urls.ts';
import { S3BlobStore } from './media/s3-blob-store.ts';
import { CliError } from './lib/cli-error.ts';
import { RequestMeter, planOf } from './modules/usage/index.ts';
import { verifiedKey, verifyKey, KeyUse } from './modules/keys/index.ts';
import { verifyWorkerToken } from './modules/workers/index.ts';
import { loadVapidKeys } from './modules/push/index.ts';
import { outcomeNotices } from './dispatch/outcomes.ts';

export interface OpenOptions {
  clock?: Clock;
  blobs?: BlobStore;
  /** SQLite file name inside dataDir (tests use their own). */
  sqliteFile?: string;
  /** Skip migrations (the caller ran them). */
  skipMigrations?: boolean;
  /**
   * Receives failures of background work (batched writes, the database handle's own work); they never reach a request. Logged to stderr by default.
   */
  onBackgroundError?: (err: unknown) => void;
  /** Where the service's parts report for monitoring; a no-op by default. */
  metrics?: MetricsRecorder;
}

export interface OpenedContext {
  ctx: AppContext;
  /** The database pool's use now; null on SQLite. */
  poolStats(): PoolStats | null;
  close(): Promise<void>;
}

export async function openContext(
  config: Config,
  options: OpenOptions = {},
): Promise<OpenedContext> {
  // Background failures are reported, never dropped: to the caller's handler, or as JSON
  // lines on stderr at the configured level (what a command run by hand shows).
  const onError = options.onBackgroundError ?? stderrReporter(config);
  const handle = connect({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.pgPoolMax,
    readCacheMs: config.pgReadCacheMs,
    sqliteFile: options.sqliteFile,
    onError,
  });
  let owned: S3BlobStore | null = null;
  try {
    let blobs = options.blobs;
    if (!blobs) {
      const made = openBlobStore(config);
      if (made instanceof S3BlobStore) owned = made;
      blobs = made;
      await checkStore(made);
    }
    if (!options.skipMigrations) await migrate(handle.db);
    const secret = await loadSecret(handle.db, config.secret);
    // Separate keys per purpose so a signature of one kind never verifies as another.
    const derive = (purpose: string) => hmac(secret, purpose).toString('base64url');
    const clock = options.clock ?? systemClock;
    const signer = new UrlSigner(derive('signed-urls'), config.publicUrl);
    const metrics = options.metrics ?? noopMetrics;
    const meter = new RequestMeter(handle.db, undefined, undefined, onError);
    const keyUse = new KeyUse(handle.db, undefined, onError);
    const sealer = new Sealer(hmac(secret, 'webhook-secrets'));
    const vapid = await loadVapidKeys(handle.db, sealer, config.push);
    const ctx: AppContext = {
      db: handle.db,
      config,
      clock,
      blobs,
      signer,
      sealer,
      media: new MediaUrls(signer, blobs, clock),
      cursors: new CursorCodec(derive('cursors')),
      meter,
      keyUse,
      access: makeAccess(handle.db, config, meter, keyUse),
      metrics,
      mailing: config.mail.smtpUrl === null ? null : { publicUrl: config.publicUrl },
      vapid,
    };
    // Outcomes are told through the dispatcher's notice fan-out, which needs the context.
    ctx.outcomes = outcomeNotices(ctx);
    // The batchers' timers run for the context's life, whatever serves it (an app, a command).
    meter.start();
    keyUse.start();
    return {
      ctx,
      poolStats: handle.poolStats,
      close: async () => {
        await ctx.meter.stop();
        await ctx.keyUse.stop();
        await handle.close();
        owned?.close();
      },
    };
  } catch (err) {
    await handle.close();
    owned?.close();
    throw err;
  }
}

function stderrReporter(config: Config): (err: unknown) => void {
  const logger = pino({ level: config.logLevel }, pino.destination(2));
  return (err) => logger.error({ err }, 'background work failed');
}

/** The blob store the configuration names: local disk by default, or an S3 bucket. */
export function openBlobStore(config: Config): BlobStore {
  return config.storage.kind === 's3'
    ? new S3BlobStore(config.storage)
    : new LocalBlobStore(join(config.dataDir, 'blobs'));
}

/** Media storage must be usable before anything is served; the operator sees why not. */
async function checkStore(blobs: BlobStore): Promise<void> {
  try {
    await blobs.check();
  } catch (err) {
    throw new CliError(`Media storage is not usable: ${(err as Error).message}`);
  }
}

/** The checks the auth hook runs, made of the keys, workers and usage modules. */
function makeAccess(db: Db, config: Config, meter: RequestMeter, keyUse: KeyUse): Access {
  return {
    knownKey: (secret) => verifiedKey(db, secret),
    verifyKey: (secret) => verifyKey(db, secret),
    verifyWorker: (token) => verifyWorkerToken(db, token),
    keyUsed: (principal, now) => keyUse.note(principal.keyId, now),
    countRequest: (principal, now) =>
      meter.take(
        principal.companyId,
        planOf(config.plans, config.defaultPlan, principal.plan).apiRequestsPerDay,
        now,
      ),
  };
}
