// Idempotency-Key on post creation and queueing (SPEC 4.2, DECISIONS 7): the
// first request with a key creates; a repeat with the same body replays the
// original post (200); another body is `idempotency_key_mismatch`. Keys are per
// company and operation and kept 24 hours. The key row is written in the same
// transaction as the post, so a failed request does not burn its key, and a
// concurrent repeat waits on the unique key and then replays: never two posts.
import { sha256 } from '../../lib/crypto.ts';
import type { DbOrTx, IdempotencyKeysTable } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import * as repo from './idempotency.repository.ts';

const KEEP_MS = 24 * 60 * 60 * 1000;

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** Digest of the request body as sent, independent of key order. */
export function requestHash(body: unknown): string {
  return sha256(JSON.stringify(canonical(body))).toString('hex');
}

export interface KeyClaim {
  companyId: string;
  operation: string;
  key: string;
  hash: string;
  /** The post this request will create or change. */
  postId: string;
  now: Date;
}

/**
 * Claims the key for this request inside its transaction. Returns null when the
 * request should go ahead, or the post id to replay.
 */
export async function claimKey(tx: DbOrTx, claim: KeyClaim): Promise<string | null> {
  const row: IdempotencyKeysTable = {
    company_id: claim.companyId,
    operation: claim.operation,
    key: claim.key,
    request_hash: claim.hash,
    post_id: claim.postId,
    created_at: claim.now.toISOString(),
    expires_at: new Date(claim.now.getTime() + KEEP_MS).toISOString(),
  };
  if (await repo.insertKey(tx, row)) return null;
  const existing = await repo.findKey(tx, row);
  if (!existing) throw new Error('idempotency key vanished inside its transaction');
  if (existing.expires_at <= row.created_at) {
    // Past its 24 hours the key is free again.
    await repo.renewKey(tx, row);
    return null;
  }
  if (existing.request_hash !== claim.hash) {
    throw new ApiError(
      'idempotency_key_mismatch',
      'Idempotency-Key was already used with a different request body',
    );
  }
  return existing.post_id;
}

/**
 * The post a create with this key made, while the key is kept; null for a key not used
 * (or expired). The dashboard's composer asks before preparing a form's media again.
 */
export async function postOfCreateKey(
  db: DbOrTx,
  companyId: string,
  key: string,
  now: Date,
): Promise<string | null> {
  const row = await repo.findKey(db, { company_id: companyId, operation: 'create-post', key });
  if (!row || row.expires_at <= now.toISOString()) return null;
  return row.post_id;
}
