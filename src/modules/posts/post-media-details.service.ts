// What the dashboard says of a post's media beyond the API's post (SPEC 2.2 gives its kind
// and count): a video's length, and the words on each rendered slide, which the page gives
// as the slide's text alternative. Two reads whatever the number of posts.
import type { AppContext } from '../../context.ts';
import { uploadDurations } from '../uploads/index.ts';
import { findPostsMediaShape } from './posts.repository.ts';
import type { SlideInput } from './posts.schemas.ts';

export interface PostMediaDetails {
  /** The video's length in seconds; null for images and a video not probed. */
  durationSeconds: number | null;
  /**
   * Per rendered slide (in order), the words drawn on it, joined; empty while the slides
   * are not rendered yet (the media then are the images they are made from, without text).
   */
  slideTexts: string[];
  /** A carousel whose slides are not rendered yet: its media are only what they are made of. */
  slidesPending: boolean;
}

/** Per post id (the company's only): its media's length and slide words. */
export async function postMediaDetails(
  ctx: AppContext,
  companyId: string,
  postIds: readonly string[],
): Promise<Map<string, PostMediaDetails>> {
  const rows = await findPostsMediaShape(ctx.db, companyId, [...new Set(postIds)]);
  const videoOf = new Map<string, string>();
  for (const r of rows) {
    const [first] = JSON.parse(r.media_upload_ids) as string[];
    if (r.media_kind === 'video' && first) videoOf.set(r.id, first);
  }
  const lengths = await uploadDurations(ctx.db, companyId, [...new Set(videoOf.values())]);
  return new Map(
    rows.map((r) => {
      const video = videoOf.get(r.id);
      const slides = r.slides && r.media_keys ? (JSON.parse(r.slides) as SlideInput[]) : [];
      return [
        r.id,
        {
          durationSeconds: video ? (lengths.get(video) ?? null) : null,
          slideTexts: slides.map((s) =>
            s.textElements
              .map((e) => e.content.replace(/\s+/g, ' ').trim())
              .filter(Boolean)
              .join(' '),
          ),
          slidesPending: r.slides !== null && r.media_keys === null,
        },
      ];
    }),
  );
}
