// Expiring download URLs of stored media. With object storage they are presigned GETs
// straight to the bucket; on local disk, URLs of the service's own /v2/media/... routes
// signed with the service's secret. Every place that hands out a media URL comes here.
import type { Readable } from 'node:stream';
import type { Clock } from '../lib/clock.ts';
import type { UrlSigner } from '../lib/signing.ts';
import type { BlobStore, ByteRange } from './blob-store.ts';

/** One piece of media: the service route serving it and where its bytes are stored. */
export interface MediaRef {
  /** The service's own path for it, e.g. /v2/media/uploads/{id}. */
  path: string;
  key: string;
  contentType: string;
}

const MAX_MEMO = 10_000;

export class MediaUrls {
  /**
   * URLs of the current expiry second. A URL depends only on the media and the expiry
   * in whole seconds, so every response within one second carries the same URL; a page
   * of posts would otherwise compute one signature per post on every request.
   */
  private memo: { second: number; urls: Map<string, string> } = { second: -1, urls: new Map() };

  constructor(
    private readonly signer: UrlSigner,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {}

  /** A URL of `media` valid until `expires`. */
  url(media: MediaRef, expires: Date): string {
    const second = Math.floor(expires.getTime() / 1000);
    if (this.memo.second !== second) this.memo = { second, urls: new Map() };
    const id = `${media.path}\n${media.key}`;
    let url = this.memo.urls.get(id);
    if (url === undefined) {
      if (this.memo.urls.size >= MAX_MEMO) this.memo.urls.clear();
      url = this.fresh(media, expires);
      this.memo.urls.set(id, url);
    }
    return url;
  }

  /**
   * The store's own URL for `media` (for redirects from the service's routes), or null
   * when the store serves nothing itself and the service streams the bytes.
   */
  direct(media: MediaRef, expires: Date): string | null {
    return this.blobs.presignGet(media.key, {
      contentType: media.contentType,
      expiresInSeconds: this.secondsUntil(expires),
    });
  }

  private fresh(media: MediaRef, expires: Date): string {
    return this.direct(media, expires) ?? this.signer.sign(media.path, expires);
  }

  private secondsUntil(expires: Date): number {
    return Math.max(1, Math.floor((expires.getTime() - this.clock.now().getTime()) / 1000));
  }
}

/** Stored bytes the service streams itself, whole or a range of them. */
export interface StoredMedia {
  contentType: string;
  size: number;
  /** The bytes, or those of `range`; rejects with the route's not-found error when gone. */
  read(range?: ByteRange): Promise<Readable>;
}

/** What a service media route answers: a redirect to the store, or the bytes themselves. */
export type MediaAnswer = { redirect: string } | StoredMedia;

/**
 * The blob under `key` as media to stream; `missing` when there is none. A `size` the
 * caller knows already (stored with its row) spares the store a lookup.
 */
export async function storedMedia(
  blobs: BlobStore,
  key: string,
  contentType: string,
  missing: () => Error,
  knownSize?: number,
): Promise<StoredMedia> {
  const size = knownSize ?? (await blobs.stat(key))?.size;
  if (size === undefined) throw missing();
  return {
    contentType,
    size,
    async read(range) {
      const stream = await blobs.get(key, range);
      if (!stream) throw missing();
      return stream;
    },
  };
}

/** How long a redirect from the service's media routes to the store stays usable. */
export const REDIRECT_URL_MS = 5 * 60 * 1000;
