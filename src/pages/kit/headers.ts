// The headers every response of the server-rendered pages carries (the dashboard, the
// workers' pages and the operator console: pages, redirects, error pages and assets). The
// pages load their scripts and stylesheet from this origin and have no inline script,
// style element, style attribute or event-handler attribute, so the policy allows nothing
// inline; no other site may frame them (clickjacking).
import type { AppContext } from '../../context.ts';

/**
 * The object store's origin that presigned URLs point to, or null for a store that presigns
 * nothing (local storage): one presigned URL names it as the store builds them (path-style
 * or virtual-hosted, public endpoint or not).
 */
function bucketOrigin(ctx: AppContext): string | null {
  const presigned = ctx.blobs.presignGet('dashboard/origin', {
    contentType: 'application/octet-stream',
    expiresInSeconds: 60,
  });
  return presigned ? new URL(presigned).origin : null;
}

/**
 * Where the pages' media come from: this origin, the public URL (the service's own signed
 * media URLs name it, and it may differ from the address a person browses) and, with
 * object storage, the bucket that presigned URLs point to.
 */
function mediaSources(ctx: AppContext, bucket: string | null): string[] {
  const sources = new Set(["'self'", new URL(ctx.config.publicUrl).origin]);
  if (bucket) sources.add(bucket);
  return [...sources];
}

/** The pages' security headers, computed once per app. */
export function pageHeaders(ctx: AppContext): Readonly<Record<string, string>> {
  const bucket = bucketOrigin(ctx);
  const media = mediaSources(ctx, bucket).join(' ');
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${media}`,
    `media-src ${media}`,
    // htmx's requests and the upload scripts' PUTs: the workspace's to this origin, the
    // post composer's to a signed upload URL, which with object storage is the bucket's.
    `connect-src 'self'${bucket ? ` ${bucket}` : ''}`,
    "form-action 'self'",
    // The workers' app's web app manifest (its icons load under img-src).
    "manifest-src 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return Object.freeze({
    'content-security-policy': csp,
    // For browsers that predate frame-ancestors.
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
  });
}
