// Node-only upload helper (`@slotline/sdk/upload`): the signed flow of DECISIONS 3 (or the
// remote form, where the service fetches a URL itself) in one call that returns once the
// upload is ready, asking GET /v2/uploads/{uploadId} while it is still pending. The bytes go out with node:http(s) rather than fetch so that the PUT always
// carries an exact Content-Length (object stores refuse chunked bodies on signed URLs)
// and progress counts what was written to the socket.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { basename, extname } from 'node:path';
import type { Readable } from 'node:stream';
import { SlotlineError, UploadFailedError } from './errors.ts';
import type { SlotlineClient } from './client.ts';
import type { components } from './schema.ts';

export type Upload = components['schemas']['Upload'];
export { UploadFailedError };

const CONTENT_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.heic': 'image/heic',
};

/** The content type a file name or URL path implies by its extension, if it names one. */
export function contentTypeOf(pathOrUrl: string): string | undefined {
  const path = /^https?:\/\//i.test(pathOrUrl) ? new URL(pathOrUrl).pathname : pathOrUrl;
  return CONTENT_TYPES[extname(path).toLowerCase()];
}

/** What a type list in an error message says: the extensions the helper recognises. */
const KNOWN_TYPES = [...new Set(Object.values(CONTENT_TYPES))].join(', ');

export interface UploadOptions {
  /** A file to send; filename, size and (by extension) content type come from it. */
  path?: string;
  /** Or a stream of exactly `sizeBytes` bytes, with `filename` and `contentType`. */
  stream?: Readable;
  sizeBytes?: number;
  filename?: string;
  contentType?: string;
  /** Defaults from the content type. */
  kind?: 'video' | 'image';
  /** Called as bytes are written: (sent so far, total). */
  onProgress?: (sentBytes: number, totalBytes: number) => void;
  /** Remote form instead of a file: the service downloads this URL itself. */
  sourceUrl?: string;
}

export interface WaitOptions {
  /** How often to ask while the upload is pending (default 1000 ms). */
  pollIntervalMs?: number;
  /** How long to wait for `ready` before throwing `upload_timeout` (default 10 minutes). */
  timeoutMs?: number;
}

/**
 * Creates an upload (signed: PUTs the bytes and completes it; remote: from `sourceUrl`) and
 * returns it once ready. Throws `UploadFailedError` when the service marks it failed.
 */
export async function uploadFile(
  api: SlotlineClient,
  options: UploadOptions & WaitOptions,
): Promise<Upload> {
  if (options.sourceUrl !== undefined) return uploadRemote(api, options.sourceUrl, options);
  const source = await describeSource(options);
  const kind = options.kind ?? (source.contentType.startsWith('video/') ? 'video' : 'image');
  const { data: created } = await api.POST('/v2/uploads', {
    body: {
      kind,
      filename: source.filename,
      contentType: source.contentType,
      sizeBytes: source.sizeBytes,
    },
  });
  if (!created?.uploadUrl) throw new Error('the service answered no uploadUrl');
  await putBytes(created.uploadUrl, source, options.onProgress);
  const { data: upload, response } = await api.POST('/v2/uploads/{uploadId}/complete', {
    params: { path: { uploadId: created.uploadId } },
  });
  if (upload!.status === 'ready') return upload!;
  if (upload!.status === 'failed') {
    throw new UploadFailedError(upload!, response.headers.get('x-request-id') ?? '');
  }
  return waitForUpload(api, created.uploadId, options);
}

async function uploadRemote(
  api: SlotlineClient,
  sourceUrl: string,
  options: UploadOptions & WaitOptions,
): Promise<Upload> {
  const type = options.contentType ?? contentTypeOf(sourceUrl);
  const kind = options.kind ?? (type ? (type.startsWith('video/') ? 'video' : 'image') : null);
  if (!kind) {
    throw new TypeError(
      `the URL's extension does not tell whether ${sourceUrl} is a video or an image: give kind ('video' or 'image')`,
    );
  }
  const { data: created } = await api.POST('/v2/uploads', {
    body: { kind, sourceUrl, ...(options.filename ? { filename: options.filename } : {}) },
  });
  return waitForUpload(api, created!.uploadId, options);
}

/**
 * Asks for an upload until it is `ready` (returned) or `failed` (`UploadFailedError`);
 * after `timeoutMs` throws a SlotlineError with code `upload_timeout` and status 0.
 */
export async function waitForUpload(
  api: SlotlineClient,
  uploadId: string,
  options: WaitOptions = {},
): Promise<Upload> {
  const interval = options.pollIntervalMs ?? 1000;
  const timeout = options.timeoutMs ?? 10 * 60_000;
  const deadline = Date.now() + timeout;
  for (;;) {
    const { data: upload, response } = await api.GET('/v2/uploads/{uploadId}', {
      params: { path: { uploadId } },
    });
    if (upload!.status === 'ready') return upload!;
    if (upload!.status === 'failed') {
      throw new UploadFailedError(upload!, response.headers.get('x-request-id') ?? '');
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new SlotlineError({
        code: 'upload_timeout',
        message: `upload ${uploadId} is still ${upload!.status} after ${timeout} ms`,
        hint: 'Ask GET /v2/uploads/{uploadId} again later, or wait longer (timeoutMs).',
        requestId: response.headers.get('x-request-id') ?? '',
        status: 0,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(interval, left)));
  }
}

interface Source {
  open(): Readable;
  filename: string;
  contentType: string;
  sizeBytes: number;
}

async function describeSource(options: UploadOptions): Promise<Source> {
  if (options.path) {
    const path = options.path;
    const contentType = options.contentType ?? contentTypeOf(path);
    if (!contentType) {
      throw new TypeError(
        `the extension of ${basename(path)} does not tell its content type: give contentType (${KNOWN_TYPES})`,
      );
    }
    return {
      open: () => createReadStream(path),
      filename: options.filename ?? basename(path),
      contentType,
      sizeBytes: options.sizeBytes ?? (await stat(path)).size,
    };
  }
  const { stream, filename, contentType, sizeBytes } = options;
  if (!stream || !filename || !contentType || sizeBytes === undefined) {
    throw new TypeError('give path, or stream with filename, contentType and sizeBytes');
  }
  return { open: () => stream, filename, contentType, sizeBytes };
}

function putBytes(
  url: string,
  source: Source,
  onProgress: UploadOptions['onProgress'],
): Promise<void> {
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, {
      method: 'PUT',
      headers: { 'content-type': source.contentType, 'content-length': source.sizeBytes },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) return resolve();
        const response = new Response(Buffer.concat(chunks), {
          status,
          headers: {
            'content-type': String(res.headers['content-type'] ?? ''),
            'x-request-id': String(res.headers['x-request-id'] ?? ''),
          },
        });
        SlotlineError.fromResponse(response).then(reject, reject);
      });
    });
    let sent = 0;
    const body = source.open();
    body.on('data', (chunk: Buffer) => {
      sent += chunk.length;
      onProgress?.(sent, source.sizeBytes);
    });
    body.on('error', (err) => req.destroy(err));
    body.pipe(req);
  });
}
