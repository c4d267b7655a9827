// The media of an import: each distinct file or URL uploaded once for the whole file, a
// few at a time, with one progress bar over all their bytes. Uploads are remembered in
// `<csv>.uploads.json` beside the file, so that a later run (the real one after a dry run,
// or a run again after a failure) reuses those the service still holds as `ready` and sends
// the very same bodies: their Idempotency-Keys then replay instead of refusing a mismatch.
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { SlotlineError } from '../errors.ts';
import type { SlotlineClient } from '../client.ts';
import type { Problem } from '../import/index.ts';
import { isMediaUrl } from '../import/index.ts';
import { contentTypeOf, uploadFile } from '../upload.ts';
import { mapLimit } from './limit.ts';
import { formatBytes, progressReporter } from './progress.ts';
import type { CliIo } from './shared.ts';

/** Uploads at once: each is mostly waiting on the network or on the service's checks. */
const UPLOADS_AT_ONCE = 3;

/** `<csv>.uploads.json`: what was uploaded for which file (as it was then) or URL. */
interface UploadCache {
  version: 1;
  /** By path relative to the CSV file's folder. */
  files: Record<string, { sizeBytes: number; mtimeMs: number; uploadId: string }>;
  urls: Record<string, { uploadId: string }>;
}

export function cachePathOf(csvPath: string): string {
  return `${csvPath}.uploads.json`;
}

async function readCache(path: string, io: CliIo): Promise<UploadCache> {
  const empty: UploadCache = { version: 1, files: {}, urls: {} };
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return empty;
  }
  try {
    const cache = JSON.parse(text) as UploadCache;
    if (cache.version === 1 && typeof cache.files === 'object' && typeof cache.urls === 'object') {
      return cache;
    }
  } catch {
    // Said below: a damaged cache only costs uploading again.
  }
  io.err(`warning: ${path} is not an upload cache; uploading every media item again\n`);
  return empty;
}

/** Written whole beside the old one, then renamed over it: never half a file. */
async function writeCache(path: string, cache: UploadCache): Promise<void> {
  const partial = `${path}.partial`;
  await writeFile(partial, `${JSON.stringify(cache, null, 2)}\n`);
  await rename(partial, path);
}

interface Planned {
  entry: string;
  /** The cache's key: the URL, or the path relative to the CSV file's folder. */
  key: string;
  url?: string;
  path?: string;
  sizeBytes: number;
  mtimeMs: number;
  cached?: string;
}

function mediaProblem(entry: string, code: string, message: string, hint?: string): Problem {
  return {
    code,
    field: 'media',
    message: `media ${entry}: ${message}`,
    hint: hint ?? 'Give a .mp4 or .mov video, or a .png, .jpg, .jpeg, .webp or .heic image.',
  };
}

/** Where each entry stands before anything is sent: a local problem, or what to upload. */
async function plan(entry: string, csvDir: string, cache: UploadCache): Promise<Planned | Problem> {
  if (isMediaUrl(entry)) {
    if (!contentTypeOf(entry)) {
      return mediaProblem(
        entry,
        'unknown_media_type',
        'the URL does not end in .mp4, .mov, .png, .jpg, .jpeg, .webp or .heic',
        'Give a URL whose path tells the kind of media, or download the file and list its path.',
      );
    }
    return {
      entry,
      key: entry,
      url: entry,
      sizeBytes: 0,
      mtimeMs: 0,
      cached: cache.urls[entry]?.uploadId,
    };
  }
  const path = resolve(csvDir, entry);
  if (!contentTypeOf(path)) {
    return mediaProblem(
      entry,
      'unsupported_media_type',
      'the name does not end in .mp4, .mov, .png, .jpg, .jpeg, .webp or .heic',
    );
  }
  let info;
  try {
    info = await stat(path);
  } catch (err) {
    const missing = (err as { code?: string }).code === 'ENOENT';
    return mediaProblem(
      entry,
      missing ? 'file_not_found' : 'file_unreadable',
      missing ? `no such file (looked for ${path})` : (err as Error).message,
      'Paths are relative to the folder of the CSV file.',
    );
  }
  if (!info.isFile()) return mediaProblem(entry, 'file_unreadable', 'is not a file');
  const key = relative(csvDir, path);
  const hit = cache.files[key];
  const same = hit && hit.sizeBytes === info.size && hit.mtimeMs === info.mtimeMs;
  return {
    entry,
    key,
    path,
    sizeBytes: info.size,
    mtimeMs: info.mtimeMs,
    cached: same ? hit.uploadId : undefined,
  };
}

/** Whether the service still holds this upload as `ready` (it may have been cleaned up). */
async function stillReady(api: SlotlineClient, uploadId: string): Promise<boolean> {
  try {
    const { data } = await api.GET('/v2/uploads/{uploadId}', { params: { path: { uploadId } } });
    return data?.status === 'ready';
  } catch (err) {
    if (err instanceof SlotlineError && err.status === 404) return false;
    throw err;
  }
}

/**
 * Uploads (or reuses) every entry; answers each entry's upload id or its problem, and
 * updates the cache beside the CSV file.
 */
export async function prepareMedia(
  api: SlotlineClient,
  entries: readonly string[],
  csvPath: string,
  io: CliIo,
): Promise<Map<string, string | Problem>> {
  const csvDir = dirname(resolve(csvPath));
  const cachePath = cachePathOf(csvPath);
  const cache = await readCache(cachePath, io);
  const outcome = new Map<string, string | Problem>();
  const planned = await mapLimit(entries, 8, (entry) => plan(entry, csvDir, cache));
  // `media/a.png` and `./media/a.png` are one file: uploaded once, under its first spelling.
  const distinct = new Map<string, Planned>();
  const aliases: [string, string][] = [];
  for (const [i, item] of planned.entries()) {
    if ('code' in item) outcome.set(entries[i]!, item);
    else if (distinct.has(item.key)) aliases.push([item.entry, distinct.get(item.key)!.entry]);
    else distinct.set(item.key, item);
  }
  const toSend: Planned[] = [];
  let reused = 0;
  await mapLimit([...distinct.values()], UPLOADS_AT_ONCE, async (item) => {
    if (item.cached && (await stillReady(api, item.cached))) {
      reused++;
      outcome.set(item.entry, item.cached);
    } else toSend.push(item);
  });

  const total = toSend.reduce((sum, item) => sum + item.sizeBytes, 0);
  if (toSend.length > 0) {
    const files = toSend.filter((item) => item.path).length;
    const parts = [
      files > 0 ? `${files} file${files === 1 ? '' : 's'} (${formatBytes(total)})` : '',
      files < toSend.length
        ? `${toSend.length - files} URL${toSend.length - files === 1 ? '' : 's'}`
        : '',
    ].filter(Boolean);
    io.err(`uploading ${parts.join(' and ')}${reused ? `; ${reused} reused` : ''}\n`);
  } else if (reused > 0) {
    io.err(`${reused} media item${reused === 1 ? '' : 's'} reused from ${cachePath}\n`);
  }
  const progress = progressReporter(io.err, io.errIsTty);
  const sent = new Map<string, number>();
  const report = () => {
    if (total === 0) return;
    let sum = 0;
    for (const n of sent.values()) sum += n;
    progress.onProgress(sum, total);
  };
  try {
    await mapLimit(toSend, UPLOADS_AT_ONCE, async (item) => {
      try {
        const upload = item.url
          ? await uploadFile(api, { sourceUrl: item.url })
          : await uploadFile(api, {
              path: item.path!,
              onProgress: (n) => {
                sent.set(item.key, n);
                report();
              },
            });
        outcome.set(item.entry, upload.uploadId);
        if (item.url) cache.urls[item.key] = { uploadId: upload.uploadId };
        else {
          const { sizeBytes, mtimeMs } = item;
          cache.files[item.key] = { sizeBytes, mtimeMs, uploadId: upload.uploadId };
        }
      } catch (err) {
        // Its bytes count as gone, so that the bar still reaches the end.
        sent.set(item.key, item.sizeBytes);
        report();
        if (err instanceof SlotlineError) {
          outcome.set(item.entry, mediaProblem(item.entry, err.code, err.message, err.hint));
        } else {
          outcome.set(item.entry, mediaProblem(item.entry, 'upload_error', (err as Error).message));
        }
      }
    });
  } finally {
    progress.done();
    if (toSend.length > 0) await writeCache(cachePath, cache);
  }
  for (const [alias, first] of aliases) outcome.set(alias, outcome.get(first)!);
  return outcome;
}
