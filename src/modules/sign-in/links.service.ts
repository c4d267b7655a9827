// One-time sign-in links of every audience, written once: the link's token is shown once
// (in the link's address), only its labelled digest is stored, and a link works until it
// expires or is used. Whether a newer link ends the older ones, and what else makes a link
// stop working (a disabled user, a worker's rotated token), is the owning module's.
import type { DbOrTx } from '../../db/types.ts';
import { sha256 } from '../../lib/crypto.ts';
import { randomToken } from '../../lib/ids.ts';
import { PLACES, type Audience, type LinkRows } from './audiences.rules.ts';
import * as links from './links.repository.ts';

function linkId(audience: Audience, token: string): string {
  return sha256(`${PLACES[audience].linkLabel}\n${token}`).toString('hex');
}

/** What the owning module sets on a new link; the rest is made here. */
export type NewLink<A extends Audience> = Omit<
  LinkRows[A],
  'id' | 'created_at' | 'expires_at' | 'used_at'
>;

/**
 * A new link: its token (shown once) and its row. `replace` ends the owner's older unused
 * links first; otherwise links used or expired are swept.
 */
export async function issueLink<A extends Audience>(
  db: DbOrTx,
  audience: A,
  now: Date,
  fields: NewLink<A>,
  options: { lifetimeMs: number; ownerId: string; replace: boolean },
): Promise<{ token: string; row: LinkRows[A] }> {
  const token = randomToken(32);
  const at = now.toISOString();
  const row = {
    ...fields,
    id: linkId(audience, token),
    created_at: at,
    expires_at: new Date(now.getTime() + options.lifetimeMs).toISOString(),
    used_at: null,
  } as LinkRows[A];
  if (options.replace) await links.expireLinksOf(db, audience, options.ownerId, at);
  else await links.deleteSpentLinks(db, audience, at);
  await links.insertLink(db, audience, row);
  return { token, row };
}

/** The link a token names while it works (unused, unexpired), or undefined. */
export async function liveLink<A extends Audience>(
  db: DbOrTx,
  audience: A,
  now: Date,
  token: string,
): Promise<LinkRows[A] | undefined> {
  if (token.length === 0 || token.length > 200) return undefined;
  const link = await links.findLink(db, audience, linkId(audience, token));
  if (!link || link.used_at !== null || Date.parse(link.expires_at) <= now.getTime()) {
    return undefined;
  }
  return link;
}

/** Marks the link used, once: false when another request used it first (or it expired). */
export async function useLink(
  db: DbOrTx,
  audience: Audience,
  link: Pick<LinkRows[Audience], 'id'>,
  now: Date,
): Promise<boolean> {
  return links.useLink(db, audience, link.id, now.toISOString());
}

/** Ends every unused link of a user, operator or worker. */
export async function expireLinksOf(
  db: DbOrTx,
  audience: Audience,
  ownerId: string,
  at: string,
): Promise<void> {
  await links.expireLinksOf(db, audience, ownerId, at);
}

/** The newest link of each of these owners (owners without one are left out). */
export async function latestLinksOf<A extends Audience>(
  db: DbOrTx,
  audience: A,
  ownerIds: readonly string[],
): Promise<LinkRows[A][]> {
  return links.latestLinksOf(db, audience, ownerIds);
}
