// Devices that receive pushes: a worker registers each phone's subscription through the
// worker API or the workers' app, a company user through the dashboard. The standard
// subscription JSON of the Push API is kept as it comes (endpoint, p256dh and auth keys,
// expiration time), after checking that its keys are what RFC 8291 encrypts to: a P-256
// public key (65 bytes, uncompressed) and a 16-byte secret. Registering an endpoint again
// updates it, and moves it when another person of the same kind now uses the device.
import type { DbOrTx, PushSubscriptionsTable } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './push.repository.ts';

/** The longest endpoint kept: push services' endpoints are a few hundred characters. */
export const MAX_ENDPOINT = 2048;

/** Who a subscription belongs to. */
export interface PushOwner {
  audience: 'worker' | 'user';
  ownerId: string;
  /** The user's company; null for a worker. */
  companyId: string | null;
}

/** A subscription as the Push API's `PushSubscription.toJSON()` gives it. */
export interface SubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  expirationTime?: number | null;
}

export interface PushDevice {
  endpoint: string;
  expirationTime: number | null;
  createdAt: string;
  updatedAt: string;
}

function invalid(field: string, message: string): ApiError {
  return new ApiError('invalid_request', `${field} ${message}`, {
    field,
    hint: 'Send the object PushSubscription.toJSON() gives in the browser, unchanged.',
  });
}

function keyBytes(value: string, field: string, length: number): Buffer {
  const bytes = /^[A-Za-z0-9_-]+={0,2}$/.test(value) ? Buffer.from(value, 'base64url') : null;
  if (!bytes || bytes.length !== length) {
    throw invalid(field, `must be ${length} bytes in base64url`);
  }
  return bytes;
}

/** The subscription checked: an http(s) endpoint and keys of the right size and shape. */
export function checkSubscription(sub: SubscriptionJson): SubscriptionJson {
  let url: URL;
  try {
    url = new URL(sub.endpoint);
  } catch {
    throw invalid('/endpoint', 'must be the absolute URL of a push service');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalid('/endpoint', 'must be an https URL');
  }
  if (sub.endpoint.length > MAX_ENDPOINT) {
    throw invalid('/endpoint', `must be at most ${MAX_ENDPOINT} characters`);
  }
  const p256dh = keyBytes(sub.keys.p256dh, '/keys/p256dh', 65);
  if (p256dh[0] !== 0x04) throw invalid('/keys/p256dh', 'must be an uncompressed P-256 point');
  keyBytes(sub.keys.auth, '/keys/auth', 16);
  return sub;
}

function deviceOf(row: PushSubscriptionsTable): PushDevice {
  return {
    endpoint: row.endpoint,
    expirationTime: row.expiration_time === null ? null : Number(row.expiration_time),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Keeps the device's subscription for `owner` (new, updated, or moved from another). */
export async function saveSubscription(
  db: DbOrTx,
  now: Date,
  owner: PushOwner,
  input: SubscriptionJson,
): Promise<PushDevice> {
  const sub = checkSubscription(input);
  const at = now.toISOString();
  await repo.upsertSubscription(db, {
    id: newId('psh', now.getTime()),
    audience: owner.audience,
    owner_id: owner.ownerId,
    company_id: owner.companyId,
    endpoint: sub.endpoint,
    p256dh: sub.keys.p256dh,
    auth: sub.keys.auth,
    expiration_time: sub.expirationTime == null ? null : String(sub.expirationTime),
    created_at: at,
    updated_at: at,
  });
  const row = await repo.findByEndpoint(db, sub.endpoint);
  if (!row) throw new Error('push subscription vanished after its write');
  return deviceOf(row);
}

/** Forgets the owner's device of `endpoint`; false when the owner had none. */
export async function removeSubscription(
  db: DbOrTx,
  owner: PushOwner,
  endpoint: string,
): Promise<boolean> {
  return repo.deleteOwned(db, owner.audience, owner.ownerId, endpoint);
}

/** The owner's devices, oldest first. */
export async function devicesOf(db: DbOrTx, owner: PushOwner): Promise<PushDevice[]> {
  return (await repo.listOfOwners(db, owner.audience, [owner.ownerId])).map(deviceOf);
}
