// The demo's images: gradient cards drawn without any image file, uploaded through the
// signed upload flow.
import sharp from 'sharp';
import type { AppContext } from '../context.ts';
import type { Principal } from '../access.ts';
import { completeUpload, createSignedUpload, storeUploadBytes } from '../modules/uploads/index.ts';

export const PALETTE = [
  ['#0f172a', '#38bdf8'],
  ['#1e1b4b', '#a78bfa'],
  ['#052e16', '#4ade80'],
  ['#451a03', '#fbbf24'],
  ['#4c0519', '#fb7185'],
  ['#083344', '#22d3ee'],
];

/** A 1080x1920 gradient card with a title, made without any image files. */
export async function demoImage(title: string, from: string, to: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="1920">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="1080" height="1920" fill="url(#g)"/>
  <circle cx="840" cy="420" r="260" fill="#ffffff" fill-opacity="0.12"/>
  <circle cx="220" cy="1500" r="340" fill="#000000" fill-opacity="0.15"/>
  <text x="540" y="1000" font-family="sans-serif" font-size="96" font-weight="700"
    fill="#ffffff" text-anchor="middle">${title}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * Uploads generated image bytes through the signed upload flow, with its thumbnail. The
 * bytes are stored where a PUT to `uploadUrl` would store them, not sent to that URL: with
 * object storage it is the bucket's, and the service need not be running for the seed.
 */
export async function uploadImage(
  ctx: AppContext,
  principal: Principal,
  filename: string,
  bytes: Buffer,
): Promise<string> {
  const created = await createSignedUpload(ctx, principal, {
    kind: 'image',
    filename,
    contentType: 'image/jpeg',
    sizeBytes: bytes.length,
  });
  await storeUploadBytes(ctx, principal.companyId, created.uploadId, {
    contentType: 'image/jpeg',
    body: bytes,
  });
  // Its thumbnail is a media job: the command does it before it ends (seed.command.ts).
  await completeUpload(ctx, principal, created.uploadId);
  return created.uploadId;
}
