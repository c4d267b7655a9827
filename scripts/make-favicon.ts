// The service's favicon.ico (GET /favicon.ico), drawn from src/pages/kit/assets/favicon.svg:
// `node --import tsx scripts/make-favicon.ts`. An ICO file holding PNG images at 16, 32 and
// 48 px (every browser since 2010 reads PNG inside ICO). The file is committed, so the
// service needs nothing of this at run time; run it again after changing the drawing.
import { readFile, writeFile } from 'node:fs/promises';
import sharp from 'sharp';

const ASSETS = new URL('../src/pages/kit/assets/', import.meta.url);
const SIZES = [16, 32, 48];

const svg = await readFile(new URL('favicon.svg', ASSETS));
const images = await Promise.all(
  SIZES.map((size) =>
    sharp(svg, { density: (72 * size) / 32 })
      .resize(size, size)
      .png({ compressionLevel: 9 })
      .toBuffer(),
  ),
);

// ICONDIR (6 bytes), one ICONDIRENTRY (16 bytes) per image, then the images.
const header = Buffer.alloc(6);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2);
header.writeUInt16LE(images.length, 4);
let offset = 6 + 16 * images.length;
const entries = images.map((png, i) => {
  const size = SIZES[i] as number;
  const entry = Buffer.alloc(16);
  entry.writeUInt8(size % 256, 0);
  entry.writeUInt8(size % 256, 1);
  entry.writeUInt8(0, 2);
  entry.writeUInt8(0, 3);
  entry.writeUInt16LE(1, 4);
  entry.writeUInt16LE(32, 6);
  entry.writeUInt32LE(png.length, 8);
  entry.writeUInt32LE(offset, 12);
  offset += png.length;
  return entry;
});
await writeFile(new URL('favicon.ico', ASSETS), Buffer.concat([header, ...entries, ...images]));
