// Unsubscribe links (RFC 8058): every mail that is not a security message carries one for
// its kind, signed by the service so that it names one person and one kind and cannot be
// changed, valid for a year (a mail is read late). Opening it shows a page with one button;
// a mail reader's one-click POST (`List-Unsubscribe=One-Click`) turns the kind off at once.
import type { DbOrTx, NotifyOptOutsTable } from '../../db/types.ts';
import type { UrlSigner } from '../../lib/signing.ts';
import { kindOf } from './notify-kinds.rules.ts';
import * as repo from './notify.repository.ts';

/** How long an unsubscribe link works. */
const LINK_MS = 365 * 24 * 3_600_000;

/** Where each audience's unsubscribe page is. */
const PAGES: Record<NotifyOptOutsTable['audience'], string> = {
  user: '/dashboard/unsubscribe',
  operator: '/operator/unsubscribe',
  worker: '/dashboard/worker/unsubscribe',
};

export interface Unsubscribe {
  audience: NotifyOptOutsTable['audience'];
  ownerId: string;
  kind: string;
}

function pathOf(u: Unsubscribe): string {
  return `${PAGES[u.audience]}/${encodeURIComponent(u.kind)}/${encodeURIComponent(u.ownerId)}`;
}

/** The signed address that turns `kind` mail off for the person. */
export function unsubscribeUrl(signer: UrlSigner, u: Unsubscribe, now: Date): string {
  return signer.sign(pathOf(u), new Date(now.getTime() + LINK_MS));
}

/** Whether an unsubscribe address's signature holds: 'ok', 'expired' or 'invalid'. */
export function checkUnsubscribe(
  signer: UrlSigner,
  u: Unsubscribe,
  expires: number,
  signature: string,
  now: Date,
) {
  return signer.check(pathOf(u), expires, signature, now);
}

/**
 * Turns the kind's mail off for the person (again: nothing changes): an opt-out for kinds on
 * by default, and no more opt-in for kinds off by default (a daily summary turned on).
 */
export async function optOut(db: DbOrTx, u: Unsubscribe, now: Date): Promise<void> {
  const key = {
    audience: u.audience,
    owner_id: u.ownerId,
    kind: u.kind,
    channel: 'email' as const,
  };
  await repo.deleteChoice(db, 'notify_opt_ins', key);
  await repo.insertChoice(db, 'notify_opt_outs', { ...key, created_at: now.toISOString() });
}

/** Turns it back on: no opt-out, and an opt-in again for a kind off by default. */
export async function optIn(db: DbOrTx, u: Unsubscribe, now: Date): Promise<void> {
  const key = {
    audience: u.audience,
    owner_id: u.ownerId,
    kind: u.kind,
    channel: 'email' as const,
  };
  await repo.deleteChoice(db, 'notify_opt_outs', key);
  if (kindOf(u.audience, u.kind)?.defaultOn === false) {
    await repo.insertChoice(db, 'notify_opt_ins', { ...key, created_at: now.toISOString() });
  }
}
