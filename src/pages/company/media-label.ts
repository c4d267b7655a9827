// What a post's media is, in words, where lists name it: "Carousel · 3 slides",
// "Video · 0:15", "Image". Pure: the pages pass what they know of the media.

/** A post's media as the API's post shows it, with the video's length when known. */
export interface MediaShape {
  kind: 'video' | 'image';
  count: number;
  durationSeconds?: number | null;
}

export type MediaKindWord = 'video' | 'carousel' | 'image';

/** What the media is: more than one image is a carousel (SPEC 2.2's slides). */
export function mediaKind(media: Pick<MediaShape, 'kind' | 'count'>): MediaKindWord {
  if (media.kind === 'video') return 'video';
  return media.count > 1 ? 'carousel' : 'image';
}

/** A length as a player shows it: "0:15", "2:05", "1:00:00"; whole seconds, rounded. */
export function durationText(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The media's label in a list: its kind, with the slides or the length when there are. */
export function mediaLabel(media: MediaShape): string {
  const kind = mediaKind(media);
  if (kind === 'carousel') return `Carousel · ${media.count} slides`;
  if (kind === 'video') {
    const d = media.durationSeconds;
    return typeof d === 'number' && Number.isFinite(d) ? `Video · ${durationText(d)}` : 'Video';
  }
  return 'Image';
}

/** The kind alone, capitalised, for a placeholder where there is no thumbnail yet. */
export function mediaKindLabel(media: Pick<MediaShape, 'kind' | 'count'>): string {
  const kind = mediaKind(media);
  return kind === 'carousel' ? 'Carousel' : kind === 'video' ? 'Video' : 'Image';
}
