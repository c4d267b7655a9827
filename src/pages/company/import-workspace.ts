// Media of the import page taken from the company's Workspace: a `media` entry may name one of
// its images as `workspace:<folder>/<image>`, by the names the Workspace page shows (letter
// case aside), and the image becomes an upload as the composer makes one of a Workspace image.
// An import then needs no address the service can fetch: a company whose media are already in
// Slotline (the demo's, on a machine the service cannot reach the internet from) imports
// with nothing else. This form is the page's own; `slotline-client import` reads files and
// addresses.
import type { Problem } from '@slotline/sdk/import';
import type { Principal } from '../../access.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { uploadHeldImage } from '../../modules/uploads/index.ts';
import { imageFolders, readImage } from '../../modules/workspace/index.ts';
import { filenameOf } from './compose.pages.ts';

const PREFIX = 'workspace:';

/** A Workspace entry that names no usable image, said of the entry as written. */
function imageProblem(entry: string, code: string, words: string): Problem {
  return {
    code,
    field: 'media',
    message: `media ${entry}: ${words}`,
    hint: 'Name a Workspace image as workspace:Folder/image, with the folder and image names the Workspace page shows.',
  };
}

/** Whether a media entry names a Workspace image rather than an address or a file. */
export function isWorkspaceEntry(entry: string): boolean {
  return entry.slice(0, PREFIX.length).toLowerCase() === PREFIX;
}

type Folders = Awaited<ReturnType<typeof imageFolders>>;

/** The company's image folders; the pickers' signed addresses are not used here. */
function foldersOf(ctx: AppContext, companyId: string): Promise<Folders> {
  return imageFolders(ctx, companyId, new Date(ctx.clock.now().getTime() + 60_000));
}

/** The Workspace image an entry names, or why it names none. */
function findImage(entry: string, folders: Folders): { imageId: string } | Problem {
  const rest = entry.slice(PREFIX.length).trim().toLowerCase();
  // A folder's name may hold a slash: the longest folder name the entry starts with wins.
  const folder = folders
    .filter((f) => rest.startsWith(`${f.name.toLowerCase()}/`))
    .sort((a, b) => b.name.length - a.name.length)[0];
  if (!folder) {
    return imageProblem(entry, 'image_not_found', 'names no folder of the Workspace');
  }
  const label = rest.slice(folder.name.length + 1).trim();
  const found = folder.images.filter((i) => i.label.toLowerCase() === label);
  if (found.length === 1)
    return { imageId: (found[0] as Folders[number]['images'][number]).imageId };
  return imageProblem(
    entry,
    'image_not_found',
    found.length === 0
      ? `names no image of the folder “${folder.name}”; check its name on the Workspace page`
      : `names ${found.length} images of the folder “${folder.name}”; rename one on the Workspace page`,
  );
}

/** Each Workspace entry as a ready upload of its image, or why it could not be one. */
export async function workspaceMedia(
  ctx: AppContext,
  principal: Principal,
  entries: readonly string[],
): Promise<Map<string, string | Problem>> {
  const out = new Map<string, string | Problem>();
  if (entries.length === 0) return out;
  const folders = await foldersOf(ctx, principal.companyId);
  for (const entry of entries) {
    const found = findImage(entry, folders);
    if ('code' in found) {
      out.set(entry, found);
      continue;
    }
    try {
      const image = await readImage(ctx, principal.companyId, found.imageId);
      const upload = await uploadHeldImage(ctx, principal, {
        filename: filenameOf(image.label, image.contentType),
        contentType: image.contentType,
        bytes: image.bytes,
      });
      out.set(entry, upload.uploadId);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // Removed meanwhile, or refused as an upload (a quota): that row's problem.
      out.set(
        entry,
        imageProblem(
          entry,
          err.code,
          err.code === 'image_not_found'
            ? 'is no longer in the Workspace'
            : `could not be used: ${err.message}`,
        ),
      );
    }
  }
  return out;
}

/** Up to `n` of the company's Workspace images as the import names them, oldest folders first. */
export async function workspaceExamples(
  ctx: AppContext,
  companyId: string,
  n: number,
): Promise<string[]> {
  const folders = await foldersOf(ctx, companyId);
  const usable = (label: string, images: readonly { label: string }[]) =>
    // `|` separates a cell's list, and a label two images share names neither.
    !label.includes('|') &&
    images.filter((i) => i.label.toLowerCase() === label.toLowerCase()).length === 1;
  return folders
    .filter((f) => !f.name.includes('|'))
    .flatMap((f) =>
      f.images.filter((i) => usable(i.label, f.images)).map((i) => `${PREFIX}${f.name}/${i.label}`),
    )
    .slice(0, n);
}
