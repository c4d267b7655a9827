import type { DbOrTx, ImageFoldersTable, ImagePacksTable, ImagesTable } from '../../db/types.ts';

export async function listFolders(db: DbOrTx, companyId: string): Promise<ImageFoldersTable[]> {
  return db
    .selectFrom('image_folders')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function listImages(db: DbOrTx, companyId: string): Promise<ImagesTable[]> {
  return db
    .selectFrom('images')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function listPacks(db: DbOrTx, companyId: string): Promise<ImagePacksTable[]> {
  return db
    .selectFrom('image_packs')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findImagesByIds(
  db: DbOrTx,
  companyId: string,
  imageIds: string[],
): Promise<Pick<ImagesTable, 'id' | 'folder_id' | 'blob_key' | 'content_type'>[]> {
  if (imageIds.length === 0) return [];
  return db
    .selectFrom('images')
    .select(['id', 'folder_id', 'blob_key', 'content_type'])
    .where('company_id', '=', companyId)
    .where('id', 'in', imageIds)
    .execute();
}

/** One of the company's images with what reading its bytes needs. */
export async function findCompanyImage(
  db: DbOrTx,
  companyId: string,
  imageId: string,
): Promise<Pick<ImagesTable, 'id' | 'label' | 'blob_key' | 'content_type'> | undefined> {
  return db
    .selectFrom('images')
    .select(['id', 'label', 'blob_key', 'content_type'])
    .where('company_id', '=', companyId)
    .where('id', '=', imageId)
    .executeTakeFirst();
}

/** For the signed download route: the signature, not a key, authorizes the read. */
export async function findImageBlob(
  db: DbOrTx,
  imageId: string,
): Promise<Pick<ImagesTable, 'blob_key' | 'content_type' | 'size_bytes'> | undefined> {
  return db
    .selectFrom('images')
    .select(['blob_key', 'content_type', 'size_bytes'])
    .where('id', '=', imageId)
    .executeTakeFirst();
}

export async function findFolderByName(
  db: DbOrTx,
  companyId: string,
  name: string,
): Promise<ImageFoldersTable | undefined> {
  return db
    .selectFrom('image_folders')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function findFolder(
  db: DbOrTx,
  companyId: string,
  folderId: string,
): Promise<ImageFoldersTable | undefined> {
  return db
    .selectFrom('image_folders')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', folderId)
    .executeTakeFirst();
}

export async function insertFolder(db: DbOrTx, row: ImageFoldersTable): Promise<void> {
  await db.insertInto('image_folders').values(row).execute();
}

export async function insertImage(db: DbOrTx, row: ImagesTable): Promise<void> {
  await db.insertInto('images').values(row).execute();
}

export async function insertPack(db: DbOrTx, row: ImagePacksTable): Promise<void> {
  await db.insertInto('image_packs').values(row).execute();
}

export async function imagesInFolder(
  db: DbOrTx,
  companyId: string,
  folderId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('images')
    .select('id')
    .where('company_id', '=', companyId)
    .where('folder_id', '=', folderId)
    .execute();
  return rows.map((r) => r.id);
}
