// API keys (SPEC 5): bound to one company, carrying scopes, stored only as a
// SHA-256 digest of the whole secret beside a visible prefix. Keys hold 160
// random bits, so a fast digest is as safe as a slow one and keeps every
// request cheap; the comparison is constant-time.
import { newId, randomToken } from '../../lib/ids.ts';
import { safeEqual, sha256 } from '../../lib/crypto.ts';
import type { Db } from '../../db/types.ts';
import { dataVersion } from '../../db/prepared.ts';
import { authVersion } from '../../db/auth-changes.ts';
import { getCompanyRow } from '../companies/index.ts';
import type { Clock } from '../../lib/clock.ts';
import { isScope, type Principal, type Scope } from '../../access.ts';
import * as repo from './keys.repository.ts';
import { CliError } from '../../lib/cli-error.ts';
import { recordActivity, type Actor } from '../activity/index.ts';

const KEY_PATTERN = /^sl_([0-9a-z]{12})_([0-9a-z]{32})$/;

export interface IssuedKey {
  keyId: string;
  companyId: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  createdAt: string;
  /** The full secret; shown once and never stored. */
  secret: string;
}

export interface KeyInfo {
  keyId: string;
  companyId: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
  /** When a request last used the key (to within a flush of the service), or null. */
  lastUsedAt: string | null;
}

export class KeyError extends CliError {}

export function parseScopes(text: string): Scope[] {
  const scopes = [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (scopes.length === 0) throw new KeyError('at least one scope is required');
  for (const s of scopes) {
    if (!isScope(s)) throw new KeyError(`unknown scope "${s}"`);
  }
  return scopes as Scope[];
}

/**
 * Issues a key. With an `actor` (a dashboard user) the key and its `key.created` entry in
 * the activity log are written in one transaction.
 */
export async function createKey(
  db: Db,
  clock: Clock,
  input: { companyId: string; scopes: Scope[]; name?: string; actor?: Actor },
): Promise<IssuedKey> {
  const company = await getCompanyRow(db, input.companyId);
  if (!company) throw new KeyError(`company ${input.companyId} does not exist`);
  const prefix = randomToken(8).slice(0, 12);
  const secret = `sl_${prefix}_${randomToken(20).slice(0, 32)}`;
  const createdAt = clock.now().toISOString();
  const keyId = newId('key');
  const name = input.name ?? 'API key';
  const row: repo.KeyRow = {
    id: keyId,
    company_id: input.companyId,
    name,
    prefix,
    key_hash: sha256(secret).toString('hex'),
    scopes: input.scopes.join(','),
    created_at: createdAt,
    revoked_at: null,
    last_used_at: null,
  };
  const actor = input.actor;
  if (!actor) await repo.insertKey(db, row);
  else {
    await db.transaction().execute(async (tx) => {
      await repo.insertKey(tx, row);
      const detail = `${name} (sl_${prefix}_…): ${input.scopes.join(', ')}`;
      await recordActivity(
        tx,
        input.companyId,
        actor,
        { action: 'key.created', target: keyId, detail },
        new Date(createdAt),
      );
    });
  }
  return {
    keyId,
    companyId: input.companyId,
    name,
    prefix,
    scopes: input.scopes,
    createdAt,
    secret,
  };
}

// Verified secrets, each with the key row it was checked against and the data
// version of the embedded database at the time. While that version holds, no
// key or company row has changed (a revocation is a write, in this process or
// another), so a repeat request with the same secret is answered from here
// without a query or a hash; once it moves, the key is read and checked again.
// The same row object back from the result cache also proves it unchanged.
// On PostgreSQL the auth version (db/auth-changes.ts) plays the data version's
// part; while it is unknown, every request is checked in full.
type Verified = { row: repo.KeyWithPlan; principal: Principal; version: number | null };
// Per database: versions of different databases are unrelated numbers.
const verifiedByDb = new WeakMap<Db, Map<string, Verified>>();

function verifiedOf(db: Db): Map<string, Verified> {
  let map = verifiedByDb.get(db);
  if (!map) {
    map = new Map();
    verifiedByDb.set(db, map);
  }
  return map;
}
const MAX_VERIFIED = 10_000;

/**
 * The principal of a secret verified before, when nothing in the database has
 * changed since; undefined when verifyKey must decide.
 */
export function verifiedKey(db: Db, secret: string): Principal | undefined {
  const hit = verifiedByDb.get(db)?.get(secret);
  if (!hit || hit.version === null) return undefined;
  return hit.version === keysVersion(db) ? hit.principal : undefined;
}

/** A number that moves whenever a key or a plan may have changed; null when unknown. */
function keysVersion(db: Db): number | null {
  return dataVersion(db) ?? authVersion(db);
}

/** The principal behind a bearer secret, or null for anything not a live key. */
export async function verifyKey(db: Db, secret: string): Promise<Principal | null> {
  const verified = verifiedOf(db);
  const hit = verified.get(secret);
  const version = keysVersion(db);
  if (hit && version !== null && hit.version === version) return hit.principal;
  const m = KEY_PATTERN.exec(secret);
  if (!m) return null;
  const row = await repo.findKeyByPrefix(db, m[1] as string);
  if (hit && row && hit.row === row) {
    hit.version = version;
    return hit.principal;
  }
  // Hash even when the prefix is unknown so timing does not tell the two apart.
  const digest = sha256(secret);
  if (!row) return null;
  if (!safeEqual(digest, Buffer.from(row.key_hash, 'hex'))) return null;
  if (row.revoked_at !== null) return null;
  const principal: Principal = {
    keyId: row.id,
    companyId: row.company_id,
    scopes: new Set(row.scopes.split(',')),
    plan: row.plan,
    suspended: row.suspended_at !== null,
  };
  if (Object.isFrozen(row) || version !== null) {
    if (verified.size >= MAX_VERIFIED) verified.clear();
    verified.set(secret, { row, principal, version });
  }
  return principal;
}

function info(row: repo.KeyRow): KeyInfo {
  return {
    keyId: row.id,
    companyId: row.company_id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes.split(','),
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

export async function listKeys(db: Db, companyId: string | null): Promise<KeyInfo[]> {
  return (await repo.listKeys(db, companyId)).map(info);
}

export async function revokeKey(db: Db, clock: Clock, keyId: string): Promise<KeyInfo> {
  const row = await repo.findKey(db, keyId);
  if (!row) throw new KeyError(`key ${keyId} does not exist`);
  await repo.revokeKey(db, keyId, clock.now().toISOString());
  return info((await repo.findKey(db, keyId)) as repo.KeyRow);
}

/** A key of the company by id; another company's key reads as unknown. */
export async function getCompanyKey(
  db: Db,
  companyId: string,
  keyId: string,
): Promise<KeyInfo | undefined> {
  const row = await repo.findCompanyKey(db, companyId, keyId);
  return row ? info(row) : undefined;
}

/**
 * Revokes a key of the company, recording `key.revoked` in the same transaction; undefined
 * for an unknown id or another company's key. Revoking a revoked key changes nothing.
 */
export async function revokeCompanyKey(
  db: Db,
  clock: Clock,
  companyId: string,
  keyId: string,
  actor: Actor,
): Promise<KeyInfo | undefined> {
  const now = clock.now();
  return db.transaction().execute(async (tx) => {
    const row = await repo.findCompanyKey(tx, companyId, keyId);
    if (!row) return undefined;
    const at = now.toISOString();
    // Revoked meanwhile (or before): nothing changes and nothing is recorded.
    if (!(await repo.revokeKey(tx, keyId, at))) {
      return info((await repo.findCompanyKey(tx, companyId, keyId)) ?? row);
    }
    await recordActivity(
      tx,
      companyId,
      actor,
      { action: 'key.revoked', target: keyId, detail: `${row.name} (sl_${row.prefix}_…)` },
      now,
    );
    return info({ ...row, revoked_at: at });
  });
}
