// Regenerates the reference renders in test/fixtures/render/ and the contact
// sheet in docs/rendering/. Run after an intended change to the slide
// renderer, look at the contact sheet, then commit both.
//
//   node --import tsx scripts/make-render-references.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import sharp from 'sharp';
import { cssFont, ensureFonts } from '../src/media/render/fonts.ts';
import { renderSlide } from '../src/media/render/slide-renderer.ts';
import { RENDER_CASES, sceneImage } from '../test/fixtures/render/cases.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fixturesDir = join(root, 'test/fixtures/render');
const docsDir = join(root, 'docs/rendering');

const THUMB_W = 270;
const THUMB_H = 480;
const LABEL_H = 44;
const GAP = 16;
const COLUMNS = 3;

async function main(): Promise<void> {
  mkdirSync(fixturesDir, { recursive: true });
  mkdirSync(docsDir, { recursive: true });

  const thumbs: { label: string; png: Buffer }[] = [];
  for (const c of RENDER_CASES) {
    const jpeg = await renderSlide(c.slide, await sceneImage(c.scene));
    writeFileSync(join(fixturesDir, `${c.name}.jpg`), jpeg);
    const png = await sharp(jpeg).resize(THUMB_W, THUMB_H).png().toBuffer();
    thumbs.push({ label: `${c.name}: ${c.label}`, png });
    console.log(`wrote test/fixtures/render/${c.name}.jpg (${jpeg.length} bytes)`);
  }

  const rows = Math.ceil(thumbs.length / COLUMNS);
  const width = GAP + COLUMNS * (THUMB_W + GAP);
  const height = GAP + rows * (THUMB_H + LABEL_H + GAP);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#1C1C1E';
  ctx.fillRect(0, 0, width, height);
  ensureFonts(thumbs.map((t) => t.label));
  ctx.font = cssFont('normal', 12);
  ctx.textBaseline = 'top';
  for (const [i, thumb] of thumbs.entries()) {
    const x = GAP + (i % COLUMNS) * (THUMB_W + GAP);
    const y = GAP + Math.floor(i / COLUMNS) * (THUMB_H + LABEL_H + GAP);
    ctx.drawImage(await loadImage(thumb.png), x, y, THUMB_W, THUMB_H);
    ctx.fillStyle = '#EBEBF0';
    const [name, ...rest] = thumb.label.split(': ');
    ctx.font = cssFont('bold', 12);
    ctx.fillText(name ?? '', x, y + THUMB_H + 6);
    ctx.font = cssFont('normal', 11);
    ctx.fillStyle = '#AEAEB2';
    ctx.fillText(rest.join(': '), x, y + THUMB_H + 24, THUMB_W);
  }
  const sheet = await sharp(await canvas.encode('png'))
    .png({ compressionLevel: 9 })
    .toBuffer();
  writeFileSync(join(docsDir, 'contact-sheet.png'), sheet);
  console.log(`wrote docs/rendering/contact-sheet.png (${sheet.length} bytes)`);
}

await main();
