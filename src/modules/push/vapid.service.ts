// The application server's VAPID key pair (RFC 8292): the configured one, or one made on
// first start and kept in the database (the private key sealed with the server secret), so
// every replica signs its pushes alike and subscriptions outlive restarts.
import { createECDH } from 'node:crypto';
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
  const read = () =>
    db.selectFrom('server_settings').select('value').where('key', '=', SETTING).executeTakeFirst();
  let row = await read();
  if (!row) {
    // Two replicas starting at once both make a pair; the first one written is kept by both.
    const made = newKeyPair();
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
    row = await read();
    if (!row) throw new Error('the VAPID key pair vanished after its write');
  }
  const kept = JSON.parse(row.value) as { publicKey: string; privateKey: string };
  return {
    publicKey: kept.publicKey,
    privateKey: sealer.open(kept.privateKey),
    subject: config.subject,
  };
}

/** A P-256 key pair as VAPID names it: the uncompressed public point and the private scalar. */
function newKeyPair(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  // The scalar comes without its leading zero bytes; VAPID keys are always 32 bytes.
  const scalar = ecdh.getPrivateKey();
  const privateKey = Buffer.concat([Buffer.alloc(32 - scalar.length), scalar]);
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: privateKey.toString('base64url'),
  };
}
