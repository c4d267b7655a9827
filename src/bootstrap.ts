// Opens storage and builds the shared context: used by the server, the CLI and tests.
import { join } from 'node:path';
import type { Config } from './config.ts';
import type { Access } from './access.ts';
import type { AppContext } from './context.ts';
import { connect, migrate } from './db/connect.ts';
import type { Db } from './db/types.ts';
import { loadSecret } from './db/secret.ts';
import { CursorCodec } from './lib/cursor.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { hmac } from './lib/crypto.ts';
import { UrlSigner } from './lib/signing.ts';
import { LocalBlobStore, type BlobStore } from './media/blob-store.ts';
import { RequestMeter } from './modules/usage/request-meter.ts';
import { planOf } from './modules/usage/usage.service.ts';
import { verifiedKey, verifyKey } from './modules/keys/keys.service.ts';
import { KeyUse } from './modules/keys/key-use.ts';
import { verifyWorkerToken } from './modules/workers/workers.service.ts';
import { ThumbnailQueue } from './media/thumbnail-queue.ts';

export interface OpenOptions {
  clock?: Clock;
  blobs?: BlobStore;
  /** SQLite file name inside dataDir (tests use their own). */
  sqliteFile?: string;
  /** Skip migrations (the caller ran them). */
  skipMigrations?: boolean;
  /** Receives failures of background work (thumbnails); they never reach a request. */
  onBackgroundError?: (err: unknown) => void;
}

export interface OpenedContext {
  ctx: AppContext;
  close(): Promise<void>;
}

export async function openContext(
  config: Config,
  options: OpenOptions = {},
): Promise<OpenedContext> {
  const handle = connect({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.pgPoolMax,
    sqliteFile: options.sqliteFile,
  });
  try {
    if (!options.skipMigrations) await migrate(handle.db);
    const secret = await loadSecret(handle.db, config.secret);
    // Separate keys per purpose so a signature of one kind never verifies as another.
    const derive = (purpose: string) => hmac(secret, purpose).toString('base64url');
    const meter = new RequestMeter(handle.db);
    const keyUse = new KeyUse(handle.db);
    const ctx: AppContext = {
      db: handle.db,
      dialect: handle.dialect,
      config,
      clock: options.clock ?? systemClock,
      blobs: options.blobs ?? new LocalBlobStore(join(config.dataDir, 'blobs')),
      signer: new UrlSigner(derive('signed-urls'), config.publicUrl),
      cursors: new CursorCodec(derive('cursors')),
      meter,
      keyUse,
      access: makeAccess(handle.db, config, meter, keyUse),
      thumbnails: new ThumbnailQueue({ onError: options.onBackgroundError ?? (() => {}) }),
      renders: new ThumbnailQueue({ onError: options.onBackgroundError ?? (() => {}) }),
    };
    return {
      ctx,
      close: async () => {
        await ctx.renders.close();
        await ctx.thumbnails.close();
        await ctx.meter.stop();
        await ctx.keyUse.stop();
        await handle.close();
      },
    };
  } catch (err) {
    await handle.close();
    throw err;
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
