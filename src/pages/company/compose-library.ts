// What the composer can pick its images from (its own uploads, the company's workspace
// images, with thumbnails for the page) and the slides whose image cannot be drawn.
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { getUpload, type UploadOut } from '../../modules/uploads/index.ts';
import { imageFolders } from '../../modules/workspace/index.ts';
import { slideField } from './compose-body.ts';
import { WORKSPACE_PREFIX, type ComposeState } from './compose-form.ts';
import { fieldError, type FieldError } from './forms.ts';

/** Workspace thumbnails outlive a long look at the page, not much more. */
const THUMBNAIL_SECONDS = 3600;

export const isHeic = (contentType: string) => /^image\/hei[cf]$/i.test(contentType);

interface LibraryImage {
  /** What the form sends for it: an upload id, or `ws:<imageId>`. */
  ref: string;
  label: string;
  url: string;
  contentType: string;
}

/** What the form can pick from: its uploads, the company's workspace images. */
export async function libraryOf(ctx: AppContext, companyId: string, state: ComposeState) {
  const expiresAt = new Date(ctx.clock.now().getTime() + THUMBNAIL_SECONDS * 1000);
  const own = async (id: string): Promise<UploadOut | null> => {
    try {
      return await getUpload(ctx, companyId, id);
    } catch (err) {
      // An id that is not the company's is left out of the page, as an unknown one is.
      if (err instanceof ApiError && err.code === 'upload_not_found') return null;
      throw err;
    }
  };
  const [folders, video, uploads] = await Promise.all([
    imageFolders(ctx, companyId, expiresAt),
    state.video ? own(state.video) : null,
    Promise.all(state.uploaded.map(own)),
  ]);
  const uploaded: LibraryImage[] = uploads
    .filter((u): u is UploadOut => u !== null && u.kind === 'image' && u.status === 'ready')
    .map((u) => ({
      ref: u.uploadId,
      label: u.filename,
      url: u.thumbnailUrl ?? u.url ?? '',
      contentType: u.contentType,
    }));
  const workspace = folders.map((f) => ({
    folderId: f.folderId,
    name: f.name,
    images: f.images.map((i): LibraryImage => ({
      ref: `${WORKSPACE_PREFIX}${i.imageId}`,
      label: i.label || 'Untitled image',
      url: i.url,
      contentType: i.contentType,
    })),
  }));
  const byRef = new Map<string, LibraryImage>();
  for (const i of [...uploaded, ...workspace.flatMap((f) => f.images)]) byRef.set(i.ref, i);
  return {
    uploaded,
    workspace,
    byRef,
    video: video && video.kind === 'video' && video.status === 'ready' ? video : null,
  };
}
export type Library = Awaited<ReturnType<typeof libraryOf>>;

/** Slides whose image cannot be drawn (HEIC): refused here, with the slide named. */
export function heicSlides(state: ComposeState, library: Library): FieldError[] {
  if (state.kind !== 'carousel') return [];
  return state.slides.flatMap((slide, i) => {
    const image = library.byRef.get(slide.image);
    if (!image || !isHeic(image.contentType)) return [];
    const f = slideField(i, 'image');
    return [
      fieldError(
        f.name,
        `Slide ${i + 1}, background image: HEIC images cannot be drawn on slides; choose a PNG, JPEG or WebP image`,
        f.id,
      ),
    ];
  });
}
