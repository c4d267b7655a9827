// The delivery record of each item of a post (GET /v2/posts/{postId}/deliveries): when it
// was released into which slot, claimed, posted and reported, whether it was on time, its
// URL and the worker's screenshot as proof.
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { deliveryRecordRows, type DeliveryRecordRow } from '../items/index.ts';
import { uploadFacts, mediaPath } from '../uploads/index.ts';
import type { DeliveryRecordOut } from './post-delivery-records.schemas.ts';
import { findPost } from './posts.repository.ts';
import { mediaUrlExpiry } from './posts.view.ts';

function minutesBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 60_000);
}

export async function postDeliveryRecords(
  ctx: AppContext,
  companyId: string,
  postId: string,
): Promise<{ postId: string; deliveries: DeliveryRecordOut[] }> {
  const post = await findPost(ctx.db, companyId, postId);
  if (!post) throw new ApiError('post_not_found', `No post ${postId}`);
  const rows = await deliveryRecordRows(ctx.db, companyId, postId);
  const proofIds = rows.flatMap((r) => (r.proof_upload_id ? [r.proof_upload_id] : []));
  const facts = await uploadFacts(ctx.db, proofIds);
  const expires = mediaUrlExpiry(ctx.clock.now());
  const proofUrl = (r: DeliveryRecordRow): string | null => {
    const id = r.proof_upload_id;
    const fact = id ? facts.get(id) : undefined;
    if (!id || !fact) return null;
    const media = { path: mediaPath(id), key: fact.blob_key, contentType: fact.content_type };
    return ctx.media.url(media, expires);
  };
  return {
    postId,
    deliveries: rows.map((r) => {
      const reference = r.slot_start ?? r.released_at;
      return {
        accountId: r.account_id,
        username: r.username,
        platform: r.platform as DeliveryRecordOut['platform'],
        status: r.status as DeliveryRecordOut['status'],
        releasedAt: r.released_at,
        claimedAt: r.claimed_at,
        postedAt: r.posted_at,
        reportedAt: r.reported_at,
        slot:
          r.slot_start && r.local_date && r.slot_label && r.slot_kind
            ? {
                start: r.slot_start,
                localDate: r.local_date,
                label: r.slot_label,
                kind: r.slot_kind as 'window' | 'makeup',
              }
            : null,
        onTime: r.status === 'posted' && r.on_time !== null ? r.on_time === 1 : null,
        minutesAfterSlotStart:
          r.status === 'posted' && r.posted_at && reference
            ? minutesBetween(reference, r.posted_at)
            : null,
        postUrl: r.post_url,
        failureReason: r.failure_reason,
        // A screenshot is proof of a post: one sent ahead of a report shows once it is posted.
        proofScreenshotUrl: r.status === 'posted' ? proofUrl(r) : null,
      };
    }),
  };
}
