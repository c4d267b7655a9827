// The workers' app icons (its web app manifest and apple-touch-icon), drawn from one SVG and
// written as PNG files beside the app's other assets: `node --import tsx
// scripts/make-worker-icons.ts`. The PNGs are committed, so the service needs nothing of this
// at run time; run it again after changing the drawing.
import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';

const OUT = new URL('../src/pages/worker/assets/', import.meta.url);
const ACCENT = '#0b5cad';

/**
 * A phone whose screen shows a play mark above two caption lines, in white on the app's
 * accent colour. `corner` rounds the background (0 fills the whole square, as maskable
 * icons and iOS, which rounds icons itself, want); `scale` shrinks the drawing into the
 * maskable safe zone.
 */
function drawing(corner: number, scale: number): string {
  const inset = (512 - 512 * scale) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
  <rect width="512" height="512" rx="${corner}" fill="${ACCENT}"/>
  <g transform="translate(${inset} ${inset}) scale(${scale})">
    <rect x="156" y="76" width="200" height="360" rx="34" fill="none" stroke="#fff" stroke-width="24"/>
    <rect x="226" y="100" width="60" height="10" rx="5" fill="#fff"/>
    <path d="M226 180 L306 228 L226 276 Z" fill="#fff"/>
    <rect x="196" y="320" width="120" height="18" rx="9" fill="#fff"/>
    <rect x="196" y="356" width="80" height="18" rx="9" fill="#fff" opacity="0.75"/>
  </g>
</svg>`;
}

async function png(svg: string, size: number, name: string): Promise<void> {
  const bytes = await sharp(Buffer.from(svg))
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();
  await writeFile(new URL(name, OUT), bytes);
}

await png(drawing(96, 1), 192, 'worker-icon-192.png');
await png(drawing(96, 1), 512, 'worker-icon-512.png');
await png(drawing(0, 0.8), 512, 'worker-icon-maskable-512.png');
await png(drawing(0, 1), 180, 'worker-icon-180.png');
