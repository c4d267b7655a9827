// Pushes as rows: written in the transaction of what caused them (a released task, a
// reminder), one outbox row per device of each person (channel `push`, the subscription's
// id as its recipient), sent later by the push loop. Writing them never waits on a push
// service, so the release path stays as fast with subscribed workers as without.
import type { DbOrTx } from '../../db/types.ts';
import { enqueueMail } from '../outbox/index.ts';
import * as repo from './push.repository.ts';

/** What the notification shows, and the page a tap opens. */
export interface PushNotice {
  title: string;
  body: string;
  /** A path of the service (`/worker/tasks/...`), opened by the service worker on a tap. */
  url: string;
  /** Notifications with one tag replace each other on the device. */
  tag: string;
}

export interface PushRequest {
  audience: 'worker' | 'user';
  ownerIds: readonly string[];
  /** The company it concerns; null for the operator side's. */
  companyId: string | null;
  kind: string;
  notice: PushNotice;
  /** At most one push per key and device. */
  dedupeKey: string;
  /** Seconds the push service keeps it for a device that is offline. */
  ttlSeconds: number;
  urgency?: 'normal' | 'high';
}

/** Writes one push per device of the owners; answers how many were written. */
export async function queuePush(tx: DbOrTx, request: PushRequest, at: Date): Promise<number> {
  const devices = await repo.listOfOwners(tx, request.audience, request.ownerIds);
  let written = 0;
  for (const device of devices) {
    const id = await enqueueMail(
      tx,
      {
        channel: 'push',
        companyId: request.companyId,
        kind: request.kind,
        to: device.id,
        subject: request.notice.title,
        text: JSON.stringify(request.notice),
        headers: {
          TTL: String(Math.max(0, Math.round(request.ttlSeconds))),
          Urgency: request.urgency ?? 'normal',
        },
        dedupeKey: `${request.dedupeKey}:${device.id}`,
      },
      at,
    );
    if (id !== null) written += 1;
  }
  return written;
}
