// The remote form of POST /v2/uploads (SPEC 4.1, DECISIONS 3): the service
// downloads `sourceUrl` itself, never from private addresses unless the
// operator allows them, streams it to storage within the size cap, then
// validates it exactly like a signed upload.
import { extname } from 'node:path';
import type { AppContext } from '../../context.ts';
import type { UploadsTable } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import {
  REMOTE_FETCH_API_ERRORS,
  RemoteFetchError,
  fetchToStore,
  type FetchedInfo,
} from '../../media/remote-fetch.ts';
import { checkDeclaredImage, checkDeclaredVideo } from '../../media/probe/index.ts';
import type { Principal } from '../../access.ts';
import { consumeDaily, planOf } from '../usage/index.ts';
import type { CreateUploadInput, CreatedUploadOut } from './uploads.schemas.ts';
import * as repo from './uploads.repository.ts';
import { REMOTE_PENDING_MS } from './upload-expiry.service.ts';
import {
  checkVideoQuotaRoom,
  failUpload,
  finishUpload,
  maxBytes,
  rejection,
  type UploadKind,
} from './uploads.service.ts';

const VIDEO_TYPE_BY_EXT: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
};
const IMAGE_TYPE_BY_EXT: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.heic': 'image/heic',
  '.heif': 'image/heif',
};

/**
 * The name and type the file is validated against: the caller's filename, else
 * the source's; the source's content type when it is one we take, else the one
 * the extension implies. The bytes decide in the end.
 */
function declaredFor(
  kind: UploadKind,
  uploadId: string,
  given: string | undefined,
  info: FetchedInfo,
) {
  const byExt = kind === 'video' ? VIDEO_TYPE_BY_EXT : IMAGE_TYPE_BY_EXT;
  const fallbackExt = kind === 'video' ? '.mp4' : '.jpg';
  const sourceName =
    info.filename && byExt[extname(info.filename).toLowerCase()] ? info.filename : null;
  const filename = given ?? sourceName ?? `${uploadId}${fallbackExt}`;
  const sent = info.contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const known = Object.values(byExt);
  const contentType = known.includes(sent)
    ? sent
    : (byExt[extname(filename).toLowerCase()] ?? byExt[fallbackExt]!);
  return { filename, contentType };
}

export async function createRemoteUpload(
  ctx: AppContext,
  principal: Principal,
  input: CreateUploadInput,
): Promise<CreatedUploadOut> {
  for (const field of ['contentType', 'sizeBytes'] as const) {
    if (input[field] !== undefined) {
      throw new ApiError('invalid_request', `/${field} is not allowed with sourceUrl`, {
        hint: 'Send kind, sourceUrl and optionally filename for a remote upload.',
      });
    }
  }
  const sourceUrl = input.sourceUrl as string;
  if (input.filename !== undefined) {
    const declared = {
      filename: input.filename,
      contentType: input.kind === 'video' ? 'video/mp4' : 'image/png',
    };
    const problem = input.kind === 'video' ? checkDeclaredVideo(declared) : null;
    if (problem) throw rejection(problem, '/filename');
  }
  if (input.kind === 'video') await checkVideoQuotaRoom(ctx, principal);

  const now = ctx.clock.now();
  const id = newId('upl', now.getTime());
  const row: UploadsTable = {
    id,
    company_id: principal.companyId,
    kind: input.kind,
    status: 'pending',
    source: 'remote',
    source_url: sourceUrl,
    filename: input.filename ?? '',
    content_type: '',
    size_bytes: null,
    stored_bytes: null,
    blob_key: `uploads/${principal.companyId}/${id}`,
    sha256: null,
    thumbnail_key: null,
    thumbnail_error: null,
    error: null,
    media_info: null,
    // Still pending past it, this request was cut off (its process killed): the deadline
    // sweep fails the upload (upload-expiry.service.ts).
    expires_at: new Date(now.getTime() + REMOTE_PENDING_MS).toISOString(),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    completed_at: null,
  };
  const plan = planOf(ctx.config.plans, ctx.config.defaultPlan, principal.plan);
  await ctx.db.transaction().execute(async (tx) => {
    await consumeDaily(tx, plan, principal.companyId, 'uploads', now);
    await repo.insertUpload(tx, row);
  });

  const limit = maxBytes(input.kind);
  let fetched: { info: FetchedInfo; size: number; sha256: string };
  try {
    fetched = await fetchToStore(
      sourceUrl,
      { maxBytes: limit, allow: ctx.config.remoteFetchAllow },
      async (body, info) => ({
        info,
        ...(await ctx.blobs.put(row.blob_key, body, { maxBytes: limit })),
      }),
    );
    ctx.metrics.uploadBytes(fetched.size);
  } catch (err) {
    if (!(err instanceof RemoteFetchError)) throw err;
    const mapped = REMOTE_FETCH_API_ERRORS[err.code];
    const message =
      mapped.code === 'file_too_large'
        ? `/sourceUrl: the file is larger than the ${input.kind} limit of ${limit} bytes`
        : `/sourceUrl: ${err.message}`;
    await failUpload(ctx.db, ctx.clock, id, message);
    ctx.metrics.uploadCompleted(input.kind, 'failed');
    throw new ApiError(mapped.code, message);
  }

  const declared = declaredFor(input.kind, id, input.filename, fetched.info);
  const problem =
    input.kind === 'video' ? checkDeclaredVideo(declared) : checkDeclaredImage(declared);
  const at = ctx.clock.now().toISOString();
  const stored: Partial<UploadsTable> = {
    filename: declared.filename,
    content_type: declared.contentType,
    size_bytes: fetched.size,
    stored_bytes: fetched.size,
    sha256: fetched.sha256,
    updated_at: at,
  };
  await repo.transition(ctx.db, id, 'pending', stored);
  if (problem) {
    await failUpload(ctx.db, ctx.clock, id, problem.error);
    throw rejection(problem);
  }
  const upload = await finishUpload(ctx, principal, { ...row, ...stored });
  return { uploadId: upload.uploadId, status: 'ready' };
}
