// Pushes as rows: written in the transaction of what caused them (a released task, a
// reminder), one outbox row per device of each person (channel `push`, the subscription's
// id as its recipient), sent later by the push loop. Writing them never waits on a push
// service, so the release path stays as fast with subscribed workers as without. Each row
// also keeps whose device it is and the push service's host (never the endpoint, which is
// a capability) as headers the sender does not send, so that the outbox pages can name
// the person and the device even once the subscription has ended.
import type { DbOrTx } from '../../db/types.ts';
import {
  PUSH_HOST_HEADER,
  PUSH_OWNER_HEADER,
  enqueueMany,
  type OutgoingMail,
} from '../outbox/index.ts';
import * as repo from './push.repository.ts';

function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return 'an unknown push service';
  }
}

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
  /**
   * Seconds the push service keeps it for a device that is offline, counted from when it is
   * sent (the push service's clock starts when it receives it), not from when it is queued.
   */
  ttlSeconds: number;
  /** Held in the outbox until then (the end of the owners' quiet hours); at once if absent. */
  dueAt?: Date;
  urgency?: 'normal' | 'high';
}

/** Writes one push per device of the owners; answers how many were written. */
export async function queuePush(tx: DbOrTx, request: PushRequest, at: Date): Promise<number> {
  return queuePushes(tx, [request], at);
}

/**
 * Writes the pushes of many requests in a few statements (a release pass's): one read of
 * the devices of every owner of an audience, one insert per few hundred rows.
 */
export async function queuePushes(
  tx: DbOrTx,
  requests: readonly PushRequest[],
  at: Date,
): Promise<number> {
  const mails: OutgoingMail[] = [];
  for (const audience of ['worker', 'user'] as const) {
    const mine = requests.filter((r) => r.audience === audience);
    if (mine.length === 0) continue;
    const owners = [...new Set(mine.flatMap((r) => r.ownerIds))];
    const devices = await repo.listOfOwners(tx, audience, owners);
    const byOwner = new Map<string, typeof devices>();
    for (const d of devices) byOwner.set(d.owner_id, [...(byOwner.get(d.owner_id) ?? []), d]);
    for (const request of mine) {
      for (const device of request.ownerIds.flatMap((id) => byOwner.get(id) ?? [])) {
        mails.push({
          channel: 'push',
          companyId: request.companyId,
          kind: request.kind,
          to: device.id,
          subject: request.notice.title,
          text: JSON.stringify(request.notice),
          headers: {
            TTL: String(Math.max(0, Math.round(request.ttlSeconds))),
            Urgency: request.urgency ?? 'normal',
            [PUSH_OWNER_HEADER]: `${audience} ${device.owner_id}`,
            [PUSH_HOST_HEADER]: hostOf(device.endpoint),
          },
          dedupeKey: `${request.dedupeKey}:${device.id}`,
          ...(request.dueAt ? { dueAt: request.dueAt } : {}),
        });
      }
    }
  }
  return enqueueMany(tx, mails, at);
}
