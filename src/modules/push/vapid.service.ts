// The application server's VAPID key pair (RFC 8292): the configured one, or one made on
// first start and kept in the database (the private key sealed with the server secret), so
// every replica signs its pushes alike and subscriptions outlive restarts.
import webpush from 'web-push';
import type { VapidKeys } from '../../context.ts';
import type { Db } from '../../db/types.ts';
import type { PushConfig } from '../../lib/push-config.ts';
import type { Sealer } from '../../lib/seal.ts';

const SETTING = 'vapid_keys';

export async function loadVapidKeys(
  db: Db,
  sealer: Sealer,
  config: PushConfig,
): Promise<VapidKeys> {
  if (config.keys) return { ...config.keys, subject: config.subject };
  const made = webpush.generateVAPIDKeys();
  await db
    .insertInto('server_settings')
    .values({
      key: SETTING,
      value: JSON.stringify({
        publicKey: made.publicKey,
        privateKey: sealer.seal(made.privateKey),
      }),
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_settings')
    .select('value')
    .where('key', '=', SETTING)
    .executeTakeFirstOrThrow();
  const kept = JSON.parse(row.value) as { publicKey: string; privateKey: string };
  return {
    publicKey: kept.publicKey,
    privateKey: sealer.open(kept.privateKey),
    subject: config.subject,
  };
}
