// The idempotency_keys table (DECISIONS 7): one row per company, operation and key.
import { param, prepared } from '../../db/prepared.ts';
import type { DbOrTx, IdempotencyKeysTable } from '../../db/types.ts';

// Every request with a key runs the insert; the read only when the key was taken.
const insertQuery = prepared((db) =>
  db
    .insertInto('idempotency_keys')
    .values({
      company_id: param('company_id'),
      operation: param('operation'),
      key: param('key'),
      request_hash: param('request_hash'),
      post_id: param('post_id'),
      created_at: param('created_at'),
      expires_at: param('expires_at'),
    })
    .onConflict((oc) => oc.columns(['company_id', 'operation', 'key']).doNothing())
    .returning('key'),
);

const findQuery = prepared((db) =>
  db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('company_id', '=', param('company_id'))
    .where('operation', '=', param('operation'))
    .where('key', '=', param('key')),
);

/** Writes the key's row; false when the key is taken already. */
export async function insertKey(tx: DbOrTx, row: IdempotencyKeysTable): Promise<boolean> {
  return (await insertQuery(tx, { ...row })).length > 0;
}

export async function findKey(
  tx: DbOrTx,
  key: Pick<IdempotencyKeysTable, 'company_id' | 'operation' | 'key'>,
): Promise<IdempotencyKeysTable | undefined> {
  return (await findQuery(tx, { ...key }))[0];
}

/** Gives an expired key to a new request. */
export async function renewKey(tx: DbOrTx, row: IdempotencyKeysTable): Promise<void> {
  await tx
    .updateTable('idempotency_keys')
    .set({
      request_hash: row.request_hash,
      post_id: row.post_id,
      created_at: row.created_at,
      expires_at: row.expires_at,
    })
    .where('company_id', '=', row.company_id)
    .where('operation', '=', row.operation)
    .where('key', '=', row.key)
    .execute();
}
