// Workspace changes made by a company's people (the dashboard's workspace page): a new
// folder, one image added to a folder, a pack made of a folder's images. Each is scoped
// to the company (another company's folder reads as an unknown one) and recorded in the
// activity log in the transaction of the change. The admin CLI's bulk import stays in
// workspace.service.ts.
import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/types.ts';
import type { AppContext } from '../../context.ts';
import type { ImagesTable } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { bufferSource, checkImageSource, IMAGE_LIMITS } from '../../media/probe/index.ts';
import { recordActivity, type Actor } from '../activity/index.ts';
import * as repo from './workspace.repository.ts';
import { createPack, WorkspaceError, type CreatePackInput } from './workspace.service.ts';

export { IMAGE_LIMITS };

/** Folder and pack names: 1-100 characters, as the admin CLI's import allows. */
const NAME_MAX = 100;

function checkName(value: string, what: string): string {
  const name = value.trim();
  if (name.length < 1 || [...name].length > NAME_MAX) {
    throw new ApiError('invalid_request', `A ${what} name has 1-${NAME_MAX} characters`);
  }
  return name;
}

function folderNotFound(folderId: string): ApiError {
  return new ApiError('not_found', `Folder ${folderId} does not exist`);
}

export async function createFolder(
  db: Db,
  clock: Clock,
  companyId: string,
  folderName: string,
  actor: Actor,
): Promise<{ folderId: string; name: string }> {
  const name = checkName(folderName, 'folder');
  if (await repo.findFolderByName(db, companyId, name)) {
    throw new ApiError('invalid_request', `A folder named “${name}” already exists`);
  }
  const now = clock.now();
  const id = newId('fld', now.getTime());
  await db.transaction().execute(async (tx) => {
    await repo.insertFolder(tx, { id, company_id: companyId, name, created_at: now.toISOString() });
    await recordActivity(
      tx,
      companyId,
      actor,
      { action: 'workspace.folder_created', target: id, detail: name },
      now,
    );
  });
  return { folderId: id, name };
}

export interface NewImage {
  bytes: Buffer;
  /** The declared content type; the content must be of that format (DECISIONS 3). */
  contentType: string;
  /** What the person sees; the file name without its extension, usually. */
  label: string;
}

const EXTENSIONS: Record<string, string> = {
  png: 'png',
  jpeg: 'jpeg',
  webp: 'webp',
  heic: 'heic',
  heif: 'heif',
};

/**
 * Adds one image to a company folder after the same checks as an image upload (real PNG,
 * JPEG, WebP or HEIC content of the declared type, at most 50 MiB and 8192 px a side).
 */
export async function addImage(
  ctx: AppContext,
  companyId: string,
  folderId: string,
  image: NewImage,
  actor: Actor,
): Promise<{ imageId: string }> {
  const folder = await repo.findFolder(ctx.db, companyId, folderId);
  if (!folder) throw folderNotFound(folderId);
  const checked = await checkImageSource(bufferSource(image.bytes), {
    filename: image.label,
    contentType: image.contentType,
  });
  if (!checked.ok) throw new ApiError(checked.code, checked.error);
  const { info } = checked;
  const now = ctx.clock.now();
  const id = newId('img', now.getTime());
  const blobKey = `images/${companyId}/${id}.${EXTENSIONS[info.format] ?? 'bin'}`;
  await ctx.blobs.put(blobKey, image.bytes);
  const row: ImagesTable = {
    id,
    company_id: companyId,
    folder_id: folder.id,
    label: image.label.trim().slice(0, 200) || id,
    description: '',
    tags: '[]',
    width: info.width,
    height: info.height,
    blob_key: blobKey,
    content_type: image.contentType.split(';')[0]?.trim().toLowerCase() ?? image.contentType,
    size_bytes: image.bytes.length,
    created_at: now.toISOString(),
  };
  try {
    await ctx.db.transaction().execute(async (tx) => {
      await repo.insertImage(tx, row);
      await recordActivity(
        tx,
        companyId,
        actor,
        { action: 'workspace.image_added', target: id, detail: `${row.label} in ${folder.name}` },
        now,
      );
    });
  } catch (err) {
    // No row names the bytes: remove them rather than leave an orphan.
    await ctx.blobs.delete(blobKey).catch(() => undefined);
    throw err;
  }
  return { imageId: id };
}

/** A pack of a company folder's images (SPEC 2.10), recorded in the activity log. */
export async function addPack(
  db: Db,
  clock: Clock,
  companyId: string,
  input: CreatePackInput,
  actor: Actor,
): Promise<{ packId: string }> {
  const name = checkName(input.name, 'pack');
  let created: { packId: string };
  try {
    created = await createPack(db, clock, companyId, { ...input, name });
  } catch (err) {
    if (!(err instanceof WorkspaceError)) throw err;
    if (/^folder .* does not exist/.test(err.message)) throw folderNotFound(input.folderId);
    throw new ApiError('invalid_request', err.message);
  }
  await recordActivity(
    db,
    companyId,
    actor,
    { action: 'workspace.pack_created', target: created.packId, detail: name },
    clock.now(),
  );
  return created;
}
