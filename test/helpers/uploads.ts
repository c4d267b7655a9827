// Drives the signed upload flow (create, PUT bytes, complete) through the API.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Call, TestApp } from './app.ts';

export const FIXTURES = 'test/fixtures/media';

export function fixture(name: string): Promise<Buffer> {
  return readFile(join(FIXTURES, name));
}

export const CONTENT_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/mp4',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.heic': 'image/heic',
};

type CallFn = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT',
  url: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<Call>;

/** Path and query of an absolute URL the service handed out, for inject. */
export function local(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

export async function putBytes(
  t: TestApp,
  uploadUrl: string,
  bytes: Buffer,
  contentType: string,
): Promise<{ statusCode: number; json(): any }> {
  if (!uploadUrl.startsWith(t.config.publicUrl)) {
    // With object storage the URL is the bucket's: a real request over the network.
    const res = await fetch(uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': contentType },
      body: bytes,
    });
    const text = await res.text();
    return { statusCode: res.status, json: () => ({ body: text }) };
  }
  return t.app.inject({
    method: 'PUT',
    url: local(uploadUrl),
    headers: { 'content-type': contentType },
    payload: bytes,
  });
}

export interface UploadFlow {
  uploadId: string;
  created: Call;
  put: { statusCode: number; json(): any };
  complete: Call;
}

export async function uploadFile(
  t: TestApp,
  call: CallFn,
  name: string,
  options: { filename?: string; contentType?: string; kind?: 'video' | 'image' } = {},
): Promise<UploadFlow> {
  const bytes = await fixture(name);
  const ext = name.slice(name.lastIndexOf('.'));
  const contentType = options.contentType ?? CONTENT_TYPES[ext]!;
  const kind = options.kind ?? (contentType.startsWith('video/') ? 'video' : 'image');
  const filename = options.filename ?? (ext === '.webm' ? 'clip.mp4' : name);
  const created = await call('POST', '/v2/uploads', {
    kind,
    filename,
    contentType,
    sizeBytes: bytes.length,
  });
  if (created.status !== 201) throw new Error(`create ${name}: ${JSON.stringify(created.body)}`);
  const put = await putBytes(t, created.body.uploadUrl, bytes, contentType);
  const complete = await call('POST', `/v2/uploads/${created.body.uploadId}/complete`);
  return { uploadId: created.body.uploadId, created, put, complete };
}
