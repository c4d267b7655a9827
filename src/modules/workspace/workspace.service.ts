// The company workspace (SPEC 2.10, 4.6): company, accounts, image folders and
// packs, and short-lived download URLs for the company's own images. Storage
// locations never leave the service: images are served through signed URLs
// that name the image, not where its bytes live.
import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/types.ts';
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import sharp from 'sharp';
import { REDIRECT_URL_MS, storedMedia, type MediaAnswer } from '../../media/media-urls.ts';
import { IMAGE_LIMITS } from '../../media/probe/index.ts';
import type { AppContext } from '../../context.ts';
import type { ImagePacksTable, ImagesTable } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { listCompanyAccounts, activityOf, NO_ACTIVITY, toAccount } from '../accounts/index.ts';
import { getCompanyRow } from '../companies/index.ts';
import type { MediaUrlsInput, MediaUrlsOut, WorkspaceOut } from './workspace.schemas.ts';
import * as repo from './workspace.repository.ts';
import { CliError } from '../../lib/cli-error.ts';

export const WORKSPACE_VERSION = 1;
const DEFAULT_URL_SECONDS = 900;

export function imagePath(imageId: string): string {
  return `/v2/media/images/${encodeURIComponent(imageId)}`;
}

export async function getWorkspace(db: Db, clock: Clock, companyId: string): Promise<WorkspaceOut> {
  const now = clock.now();
  const [company, accounts, folders, images, packs] = await Promise.all([
    getCompanyRow(db, companyId),
    listCompanyAccounts(db, companyId),
    repo.listFolders(db, companyId),
    repo.listImages(db, companyId),
    repo.listPacks(db, companyId),
  ]);
  if (!company) throw new ApiError('not_found', `Company ${companyId} does not exist`);
  const activity = await activityOf(db, companyId, accounts, now);
  return {
    version: WORKSPACE_VERSION,
    refreshedAt: now.toISOString(),
    company: {
      companyId: company.id,
      name: company.name,
      description: company.description,
      website: company.website,
    },
    accounts: accounts.map((row) => {
      const a = toAccount(row, company.schedule_windows, now, activity.get(row.id) ?? NO_ACTIVITY);
      return {
        accountId: a.accountId,
        platform: a.platform,
        username: a.username,
        displayName: a.displayName,
        status: a.status,
        timezone: a.timezone,
        followers: a.followers,
        postsToday: a.postsToday,
        dailyCap: a.dailyCap,
        queueDepth: a.queueDepth,
        nextWindow: a.nextWindow,
        lastPostAt: a.lastPostAt,
        niche: row.niche,
        warmupSearchTerms: a.warmup.searchTerms,
      };
    }),
    folders: folders.map((f) => ({
      folderId: f.id,
      name: f.name,
      createdAt: f.created_at,
      images: images
        .filter((i) => i.folder_id === f.id)
        .map((i) => ({
          imageId: i.id,
          folderId: i.folder_id,
          label: i.label,
          description: i.description,
          tags: JSON.parse(i.tags) as string[],
          width: i.width,
          height: i.height,
          createdAt: i.created_at,
        })),
      packs: packs
        .filter((p) => p.folder_id === f.id)
        .map((p) => ({
          packId: p.id,
          folderId: p.folder_id,
          name: p.name,
          description: p.description,
          color: p.color,
          imageIds: JSON.parse(p.image_ids) as string[],
          imageFit: p.image_fit as 'fit' | 'fill',
          useImagesOnce: p.use_once === 1,
        })),
    })),
  };
}

interface StoredImage {
  id: string;
  blob_key: string;
  content_type: string;
}

/** An expiring download URL of a workspace image (a presigned GET with object storage). */
export function imageUrl(ctx: AppContext, image: StoredImage, expiresAt: Date): string {
  return ctx.media.url(
    { path: imagePath(image.id), key: image.blob_key, contentType: image.content_type },
    expiresAt,
  );
}

/** Download URLs of all the company's workspace images, by image id. */
export async function workspaceImageUrls(
  ctx: AppContext,
  companyId: string,
  expiresAt: Date,
): Promise<Map<string, string>> {
  const images = await repo.listImages(ctx.db, companyId);
  return new Map(images.map((i) => [i.id, imageUrl(ctx, i, expiresAt)]));
}

/** A workspace image as a picker shows it: what it is, and a short-lived URL to show it. */
export interface PickableImage {
  imageId: string;
  label: string;
  width: number;
  height: number;
  contentType: string;
  url: string;
}

/** The company's image folders with their images, each with a download URL until `expiresAt`. */
export async function imageFolders(
  ctx: AppContext,
  companyId: string,
  expiresAt: Date,
): Promise<{ folderId: string; name: string; images: PickableImage[] }[]> {
  const [folders, images] = await Promise.all([
    repo.listFolders(ctx.db, companyId),
    repo.listImages(ctx.db, companyId),
  ]);
  return folders.map((f) => ({
    folderId: f.id,
    name: f.name,
    images: images
      .filter((i) => i.folder_id === f.id)
      .map((i) => ({
        imageId: i.id,
        label: i.label,
        width: i.width,
        height: i.height,
        contentType: i.content_type,
        url: imageUrl(ctx, i, expiresAt),
      })),
  }));
}

/** Signs download URLs for images found through the company's own folders. */
export async function createMediaUrls(
  ctx: AppContext,
  companyId: string,
  input: MediaUrlsInput,
): Promise<MediaUrlsOut> {
  const now = ctx.clock.now();
  const expiresAt = new Date(
    now.getTime() + (input.expiresInSeconds ?? DEFAULT_URL_SECONDS) * 1000,
  );
  const found = await repo.findImagesByIds(ctx.db, companyId, [
    ...new Set(input.items.map((i) => i.imageId)),
  ]);
  const folderOf = new Map(found.map((r) => [r.id, r.folder_id]));
  const imageOf = new Map(found.map((r) => [r.id, r]));
  for (const [i, item] of input.items.entries()) {
    if (folderOf.get(item.imageId) !== item.folderId) {
      throw new ApiError(
        'image_not_found',
        `/items/${i}: image ${item.imageId} does not exist in folder ${item.folderId}`,
      );
    }
  }
  return {
    expiresAt: expiresAt.toISOString(),
    data: input.items.map((item) => ({
      folderId: item.folderId,
      imageId: item.imageId,
      url: imageUrl(ctx, imageOf.get(item.imageId) as StoredImage, expiresAt),
    })),
  };
}

/** The bytes of one of the company's images; another company's image is unknown. */
export async function readImage(
  ctx: AppContext,
  companyId: string,
  imageId: string,
): Promise<{ label: string; contentType: string; bytes: Buffer }> {
  const image = await repo.findCompanyImage(ctx.db, companyId, imageId);
  const missing = () => new ApiError('image_not_found', `Image ${imageId} does not exist`);
  if (!image) throw missing();
  const bytes = await ctx.blobs.read(image.blob_key, IMAGE_LIMITS.maxBytes);
  if (!bytes) throw missing();
  return { label: image.label, contentType: image.content_type, bytes };
}

export async function openSignedImage(
  ctx: AppContext,
  imageId: string,
  expires: number,
  signature: string,
): Promise<MediaAnswer> {
  const check = ctx.signer.check(imagePath(imageId), expires, signature, ctx.clock.now());
  if (check === 'expired') throw new ApiError('invalid_signature', 'This URL has expired');
  if (check === 'invalid')
    throw new ApiError('invalid_signature', 'This URL’s signature is not valid');
  const image = await repo.findImageBlob(ctx.db, imageId);
  if (image) {
    const until = new Date(ctx.clock.now().getTime() + REDIRECT_URL_MS);
    const ref = { path: imagePath(imageId), key: image.blob_key, contentType: image.content_type };
    const redirect = ctx.media.direct(ref, until);
    if (redirect) return { redirect };
  }
  const missing = () => new ApiError('image_not_found', `Image ${imageId} does not exist`);
  if (!image) throw missing();
  return storedMedia(ctx.blobs, image.blob_key, image.content_type, missing, image.size_bytes);
}

// ---- Operator actions (admin CLI) ----

export class WorkspaceError extends CliError {}

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  heif: 'image/heic',
};

/** Adds image files to a folder (created when new); returns the folder id and new image ids. */
export async function importImages(
  ctx: AppContext,
  companyId: string,
  folderName: string,
  files: string[],
): Promise<{ folderId: string; imageIds: string[] }> {
  if (!(await getCompanyRow(ctx.db, companyId))) {
    throw new WorkspaceError(`company ${companyId} does not exist`);
  }
  const name = folderName.trim();
  if (name.length < 1 || name.length > 100)
    throw new WorkspaceError('folder name must be 1-100 characters');
  const prepared: { bytes: Buffer; type: string; width: number; height: number; label: string }[] =
    [];
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (err) {
      throw new WorkspaceError(
        `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? err}`,
      );
    }
    let meta: sharp.Metadata;
    try {
      meta = await sharp(bytes).metadata();
    } catch {
      throw new WorkspaceError(`${file} is not a PNG, JPEG, WebP or HEIC image`);
    }
    const type = meta.format ? IMAGE_TYPES[meta.format] : undefined;
    if (!type || !meta.width || !meta.height) {
      throw new WorkspaceError(`${file} is not a PNG, JPEG, WebP or HEIC image`);
    }
    prepared.push({
      bytes,
      type,
      width: meta.width,
      height: meta.height,
      label: basename(file, extname(file)).slice(0, 200),
    });
  }
  const now = ctx.clock.now();
  let folder = await repo.findFolderByName(ctx.db, companyId, name);
  if (!folder) {
    folder = {
      id: newId('fld', now.getTime()),
      company_id: companyId,
      name,
      created_at: now.toISOString(),
    };
    await repo.insertFolder(ctx.db, folder);
  }
  const imageIds: string[] = [];
  for (const p of prepared) {
    const id = newId('img', now.getTime());
    const ext = p.type.split('/')[1] as string;
    const blobKey = `images/${companyId}/${id}.${ext}`;
    await ctx.blobs.put(blobKey, p.bytes);
    const row: ImagesTable = {
      id,
      company_id: companyId,
      folder_id: folder.id,
      label: p.label,
      description: '',
      tags: '[]',
      width: p.width,
      height: p.height,
      blob_key: blobKey,
      content_type: p.type,
      size_bytes: p.bytes.length,
      created_at: now.toISOString(),
    };
    await repo.insertImage(ctx.db, row);
    imageIds.push(id);
  }
  return { folderId: folder.id, imageIds };
}

export interface CreatePackInput {
  folderId: string;
  name: string;
  imageIds: string[];
  imageFit: 'fit' | 'fill';
  useOnce: boolean;
  description?: string;
  color?: string;
}

export async function createPack(
  db: Db,
  clock: Clock,
  companyId: string,
  input: CreatePackInput,
): Promise<{ packId: string }> {
  const folder = await repo.findFolder(db, companyId, input.folderId);
  if (!folder)
    throw new WorkspaceError(`folder ${input.folderId} does not exist in company ${companyId}`);
  if (input.imageIds.length === 0) throw new WorkspaceError('a pack needs at least one image');
  const inFolder = new Set(await repo.imagesInFolder(db, companyId, folder.id));
  for (const id of input.imageIds) {
    if (!inFolder.has(id)) throw new WorkspaceError(`image ${id} is not in folder ${folder.id}`);
  }
  const now = clock.now();
  const row: ImagePacksTable = {
    id: newId('pck', now.getTime()),
    company_id: companyId,
    folder_id: folder.id,
    name: input.name,
    description: input.description ?? '',
    color: input.color ?? 'slate',
    image_ids: JSON.stringify(input.imageIds),
    image_fit: input.imageFit,
    use_once: input.useOnce ? 1 : 0,
    created_at: now.toISOString(),
  };
  await repo.insertPack(db, row);
  return { packId: row.id };
}
