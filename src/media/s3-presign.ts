// Presigned S3 GET URLs (AWS Signature Version 4, query form), computed synchronously.
// @aws-sdk/s3-request-presigner makes the same URLs but only asynchronously, and the
// posts' read cache writes the URLs into cached bodies synchronously, once per second
// (src/http/read-cache.ts). A test checks these URLs are byte for byte the SDK's.
import { createHash, createHmac } from 'node:crypto';

export interface PresignTarget {
  /** http(s) origin the caller reaches, e.g. http://127.0.0.1:9000. */
  endpoint: string;
  bucket: string;
  forcePathStyle: boolean;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** RFC 3986 encoding, as SigV4 wants it: only unreserved characters stay as they are. */
export function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The object's URL without a query, and the host it is signed for. */
export function objectUrl(target: PresignTarget, key: string): { url: string; host: string } {
  const base = new URL(target.endpoint);
  const path = key.split('/').map(encodeRfc3986).join('/');
  if (target.forcePathStyle) {
    return { url: `${base.origin}/${encodeRfc3986(target.bucket)}/${path}`, host: base.host };
  }
  const host = `${target.bucket}.${base.host}`;
  return { url: `${base.protocol}//${host}/${path}`, host };
}

function hmac(key: Buffer | string, text: string): Buffer {
  return createHmac('sha256', key).update(text, 'utf8').digest();
}

/** Signing keys per day and credentials: four HMACs saved on every URL. */
const keyCache = new Map<string, Buffer>();

function signingKey(target: PresignTarget, day: string): Buffer {
  const id = `${day}\n${target.region}\n${target.accessKeyId}\n${target.secretAccessKey}`;
  let key = keyCache.get(id);
  if (!key) {
    if (keyCache.size > 64) keyCache.clear();
    const dateKey = hmac(`AWS4${target.secretAccessKey}`, day);
    key = hmac(hmac(hmac(dateKey, target.region), 's3'), 'aws4_request');
    keyCache.set(id, key);
  }
  return key;
}

/**
 * A presigned GET of `key`, valid `expiresInSeconds` from `signedAt` (the bucket's
 * clock decides, so this is the wall clock). `responseContentType` becomes the
 * Content-Type of the download.
 */
export function presignGetUrl(
  target: PresignTarget,
  key: string,
  options: { expiresInSeconds: number; signedAt: Date; responseContentType?: string },
): string {
  const { url, host } = objectUrl(target, key);
  const amzDate = options.signedAt
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const scope = `${day}/${target.region}/s3/aws4_request`;
  const params: [string, string][] = [
    ['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'],
    ['X-Amz-Content-Sha256', 'UNSIGNED-PAYLOAD'],
    ['X-Amz-Credential', `${target.accessKeyId}/${scope}`],
    ['X-Amz-Date', amzDate],
    ['X-Amz-Expires', String(Math.max(1, Math.min(604_800, Math.floor(options.expiresInSeconds))))],
    ['X-Amz-SignedHeaders', 'host'],
    ['x-id', 'GetObject'],
  ];
  if (options.responseContentType) {
    params.push(['response-content-type', options.responseContentType]);
  }
  const encoded = params.map(([k, v]) => [encodeRfc3986(k), encodeRfc3986(v)] as const);
  encoded.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = encoded.map(([k, v]) => `${k}=${v}`).join('&');
  const path = new URL(url).pathname;
  const canonical = `GET\n${path}\n${query}\nhost:${host}\n\nhost\nUNSIGNED-PAYLOAD`;
  const digest = createHash('sha256').update(canonical, 'utf8').digest('hex');
  const toSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${digest}`;
  const signature = hmac(signingKey(target, day), toSign).toString('hex');
  return `${url}?${query}&X-Amz-Signature=${signature}`;
}
