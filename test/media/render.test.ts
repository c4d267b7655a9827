import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { backgroundPixels } from '../../src/media/render/background.ts';
import {
  clearBackgroundCache,
  layoutSlide,
  OUTPUT_HEIGHT,
  OUTPUT_WIDTH,
  RENDER_SCALE,
  renderSlides,
  renderSlide,
  renderSlidePng,
} from '../../src/media/render/slide-renderer.ts';
import type { SlideSpec, TextMode } from '../../src/media/render/slide-renderer.ts';
import { RENDER_CASES, sceneImage } from '../fixtures/render/cases.ts';

const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/render');
const REGENERATE = 'node --import tsx scripts/make-render-references.ts';

interface Raw {
  data: Buffer;
  width: number;
  height: number;
}

async function rgb(image: Buffer): Promise<Raw> {
  const { data, info } = await sharp(image)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

interface Difference {
  /** Mean absolute difference over all channels, 0-255. */
  mean: number;
  /** Share of pixels where some channel differs by more than 40. */
  changed: number;
}

function difference(a: Raw, b: Raw): Difference {
  assert.deepEqual([a.width, a.height], [b.width, b.height], 'image sizes differ');
  let sum = 0;
  let changed = 0;
  for (let i = 0; i < a.data.length; i += 3) {
    let worst = 0;
    for (let c = 0; c < 3; c++) {
      const d = Math.abs((a.data[i + c] ?? 0) - (b.data[i + c] ?? 0));
      sum += d;
      if (d > worst) worst = d;
    }
    if (worst > 40) changed++;
  }
  const pixels = a.data.length / 3;
  return { mean: sum / a.data.length, changed: changed / pixels };
}

// Anti-aliasing and JPEG rounding may differ by a few levels between builds of
// the rasteriser; a moved, missing or recoloured word changes far more.
const MAX_MEAN = 1.5;
const MAX_CHANGED = 0.004;

function similar(d: Difference): boolean {
  return d.mean < MAX_MEAN && d.changed < MAX_CHANGED;
}

for (const c of RENDER_CASES) {
  test(`render matches the reference: ${c.name} (${c.label})`, async () => {
    const referencePath = join(fixturesDir, `${c.name}.jpg`);
    assert.ok(existsSync(referencePath), `missing ${referencePath}; run ${REGENERATE}`);
    const jpeg = await renderSlide(c.slide, await sceneImage(c.scene));
    const meta = await sharp(jpeg).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', OUTPUT_WIDTH, OUTPUT_HEIGHT]);
    const d = difference(await rgb(jpeg), await rgb(readFileSync(referencePath)));
    assert.ok(
      similar(d),
      `${c.name} differs from its reference (mean ${d.mean.toFixed(2)}, ` +
        `${(d.changed * 100).toFixed(2)} % of pixels changed); if the change is intended, run ${REGENERATE}`,
    );
  });
}

test('the references cover every textMode, textAlign, imageFit and colour', () => {
  const styles = RENDER_CASES.flatMap((c) => c.slide.textElements.map((e) => e.style));
  const seen = (values: (string | undefined)[]): Set<string> =>
    new Set(values.filter((v): v is string => v !== undefined));
  const modes = seen(styles.map((s) => s.textMode ?? 'stroke'));
  const aligns = seen(styles.map((s) => s.textAlign ?? 'center'));
  const fits = seen(RENDER_CASES.map((c) => c.slide.imageFit ?? 'fill'));
  const textColors = seen(styles.map((s) => s.textColor ?? 'white'));
  const boxColors = seen(styles.map((s) => s.backgroundColor ?? 'none'));
  assert.deepEqual([...modes].sort(), ['background', 'plain', 'snapchat', 'stroke']);
  assert.deepEqual([...aligns].sort(), ['center', 'left', 'right']);
  assert.deepEqual([...fits].sort(), ['fill', 'fit']);
  assert.deepEqual([...textColors].sort(), ['black', 'blue', 'red', 'white', 'yellow']);
  assert.deepEqual([...boxColors].sort(), ['black', 'blue', 'none', 'red', 'white', 'yellow']);
  assert.ok(
    styles.some((s) => (s.padding ?? 0) > 0) && styles.some((s) => s.width !== undefined),
    'padding and width are exercised',
  );
});

test('the reference comparison notices a real change', async () => {
  const base = RENDER_CASES.find((c) => c.name === 'stroke-hook');
  assert.ok(base !== undefined, 'stroke-hook case exists');
  const [heading, ...rest] = base.slide.textElements;
  assert.ok(heading !== undefined, 'stroke-hook has a heading');
  const moved: SlideSpec = {
    ...base.slide,
    textElements: [{ ...heading, style: { ...heading.style, textAlign: 'left' } }, ...rest],
  };
  const jpeg = await renderSlide(moved, await sceneImage(base.scene));
  const d = difference(
    await rgb(jpeg),
    await rgb(readFileSync(join(fixturesDir, 'stroke-hook.jpg'))),
  );
  assert.ok(
    !similar(d),
    `left-aligned heading passed as the centred reference (${JSON.stringify(d)})`,
  );
});

// A code point no font has: whatever the rasteriser draws for it is what a
// missing glyph looks like.
const TOFU = '\u{10FFFD}';
const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const tofuFor = (text: string): string =>
  Array.from(graphemeSegmenter.segment(text), (s) => (s.segment.trim() === '' ? ' ' : TOFU)).join(
    '',
  );

const SCRIPT_SAMPLES = [
  { name: 'Cyrillic', text: 'Привет Ж' },
  { name: 'Simplified Chinese', text: '汉字中文' },
  { name: 'Japanese kana', text: 'ひらがなカタカナ' },
  { name: 'Korean Hangul', text: '한국어 글자' },
  { name: 'emoji', text: '😀🔥👍🏽❤️' },
];

function sampleSlide(texts: string[], textMode: TextMode = 'plain'): SlideSpec {
  return {
    image: 'black',
    textElements: texts.map((content, i) => ({
      content,
      style: { positionY: 12 + i * 18, fontSize: 36, textMode },
    })),
  };
}

interface Crop {
  left: number;
  top: number;
  width: number;
  height: number;
}

function regionStats(image: Raw, other: Raw, crop: Crop) {
  let ink = 0;
  let differs = 0;
  let colourful = 0;
  for (let y = crop.top; y < crop.top + crop.height; y++) {
    for (let x = crop.left; x < crop.left + crop.width; x++) {
      const i = (y * image.width + x) * 3;
      const r = image.data[i] ?? 0;
      const g = image.data[i + 1] ?? 0;
      const b = image.data[i + 2] ?? 0;
      if (Math.max(r, g, b) > 60) ink++;
      if (Math.max(r, g, b) - Math.min(r, g, b) > 80) colourful++;
      let worst = 0;
      for (let c = 0; c < 3; c++) {
        worst = Math.max(worst, Math.abs((image.data[i + c] ?? 0) - (other.data[i + c] ?? 0)));
      }
      if (worst > 60) differs++;
    }
  }
  return { ink, differs, colourful };
}

test('Cyrillic, CJK, Hangul and emoji draw real glyphs, not missing-glyph boxes', async () => {
  const black = await sharp({
    create: { width: 360, height: 640, channels: 3, background: '#000000' },
  })
    .png()
    .toBuffer();
  const texts = SCRIPT_SAMPLES.map((s) => s.text);
  const slide = sampleSlide(texts);
  const tofuSlide = sampleSlide(texts.map(tofuFor));
  const real = await rgb(await renderSlidePng(slide, black));
  const tofu = await rgb(await renderSlidePng(tofuSlide, black));
  const layouts = layoutSlide(slide);

  SCRIPT_SAMPLES.forEach((sample, i) => {
    const block = layouts[i]?.block;
    assert.ok(block !== undefined, `layout for ${sample.name}`);
    const crop: Crop = {
      left: Math.max(0, Math.floor(block.x * RENDER_SCALE)),
      top: Math.max(0, Math.floor(block.y * RENDER_SCALE)),
      width: Math.min(OUTPUT_WIDTH, Math.ceil(block.width * RENDER_SCALE)),
      height: Math.ceil(block.height * RENDER_SCALE),
    };
    const stats = regionStats(real, tofu, crop);
    const area = crop.width * crop.height;
    assert.ok(stats.ink > area * 0.03, `${sample.name} drew almost nothing (${stats.ink} px)`);
    assert.ok(
      stats.differs > stats.ink * 0.3,
      `${sample.name} looks like missing-glyph boxes (${stats.differs} of ${stats.ink} px differ)`,
    );
    if (sample.name === 'emoji') {
      // The text colour is white: colour can only come from the colour emoji font.
      assert.ok(stats.colourful > area * 0.02, `emoji are not in colour (${stats.colourful} px)`);
    } else {
      assert.ok(stats.colourful < area * 0.001, `${sample.name} should be white text`);
    }
  });
});

test('stroke outlines contrast with the text colour', async () => {
  const grey = await sharp({
    create: { width: 360, height: 640, channels: 3, background: '#808080' },
  })
    .png()
    .toBuffer();
  const slide: SlideSpec = {
    image: 'grey',
    textElements: [
      { content: 'WHITE', style: { positionY: 30, fontSize: 60, fontWeight: 'bold' } },
      {
        content: 'BLACK',
        style: { positionY: 70, fontSize: 60, fontWeight: 'bold', textColor: 'black' },
      },
    ],
  };
  const image = await rgb(await renderSlidePng(slide, grey));
  const [white, black] = layoutSlide(slide);
  assert.ok(white !== undefined && black !== undefined, 'two layouts');
  const count = (block: { x: number; y: number; width: number; height: number }) => {
    let dark = 0;
    let light = 0;
    for (let y = Math.floor(block.y * 3); y < (block.y + block.height) * 3; y++) {
      for (let x = Math.floor(block.x * 3); x < (block.x + block.width) * 3; x++) {
        const v = image.data[(y * image.width + x) * 3] ?? 0;
        if (v < 30) dark++;
        if (v > 225) light++;
      }
    }
    return { dark, light };
  };
  const w = count(white.block);
  const b = count(black.block);
  // White text on grey: the dark pixels are its outline; black text: the light ones.
  assert.ok(w.dark > 2000 && w.light > 2000, `white text has a dark outline ${JSON.stringify(w)}`);
  assert.ok(b.dark > 2000 && b.light > 2000, `black text has a light outline ${JSON.stringify(b)}`);
});

test('a decoded background is cached and shared between slides', async () => {
  const bytes = await sceneImage('ocean');
  const first = backgroundPixels(bytes, 'fill');
  assert.equal(backgroundPixels(Buffer.from(bytes), 'fill'), first, 'same bytes hit the cache');
  assert.notEqual(backgroundPixels(bytes, 'fit'), first, 'fit and fill are cached apart');
  const pixels = await first;
  assert.equal(pixels.length, OUTPUT_WIDTH * OUTPUT_HEIGHT * 4);
});

test('imageFit fit letterboxes a landscape image on black; fill covers the canvas', async () => {
  const bytes = await sceneImage('ocean');
  const fit = await backgroundPixels(bytes, 'fit');
  const fill = await backgroundPixels(bytes, 'fill');
  const at = (px: Uint8ClampedArray, x: number, y: number) =>
    Array.from(px.subarray((y * OUTPUT_WIDTH + x) * 4, (y * OUTPUT_WIDTH + x) * 4 + 3));
  assert.deepEqual(at(fit, 540, 10), [0, 0, 0]);
  assert.deepEqual(at(fit, 540, 1910), [0, 0, 0]);
  assert.notDeepEqual(at(fit, 540, 960), [0, 0, 0]);
  assert.notDeepEqual(at(fill, 540, 10), [0, 0, 0]);
  assert.notDeepEqual(at(fill, 540, 1910), [0, 0, 0]);
});

test('a 10-slide carousel with 6 text elements each renders in under 1.5 s of CPU', async (t) => {
  const modes: TextMode[] = ['stroke', 'background', 'plain', 'snapchat'];
  const images = new Map<string, Buffer>();
  const sources = await Promise.all((['sunset', 'ocean', 'studio'] as const).map(sceneImage));
  for (let k = 0; k < 10; k++) {
    const source = sources[k % sources.length];
    assert.ok(source !== undefined, 'scene image');
    // Distinct, camera-sized JPEGs so every slide pays for a real decode.
    images.set(
      `img${k}`,
      await sharp(source)
        .resize(1080, 1920)
        .modulate({ hue: k * 36 })
        .jpeg({ quality: 90 })
        .toBuffer(),
    );
  }
  const slides: SlideSpec[] = Array.from({ length: 10 }, (_, k) => ({
    image: `img${k}`,
    textElements: Array.from({ length: 6 }, (_, j) => ({
      content:
        j === 0
          ? 'Five habits that changed how I work 🔥'
          : `Habit ${j}: write down the one thing that matters before opening any app`,
      style: {
        positionY: 8 + j * 16,
        textMode: modes[(j + k) % modes.length],
        fontSize: j === 0 ? 26 : 15,
        fontWeight: j === 0 ? 'bold' : 'normal',
      },
    })),
  }));

  // Fonts are registered once per process; measure the steady state with
  // every image decoded afresh.
  await renderSlides(slides.slice(0, 1), images);
  clearBackgroundCache();
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const out = await renderSlides(slides, images);
  const wall = performance.now() - wallBefore;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  t.diagnostic(`10 slides x 6 elements: ${cpuMs.toFixed(0)} ms CPU, ${wall.toFixed(0)} ms wall`);
  assert.equal(out.length, 10);
  // CPU time rather than wall time: it is what one core would need, and it
  // does not swing with whatever else the machine is running.
  assert.ok(cpuMs < 1500, `carousel took ${cpuMs.toFixed(0)} ms of CPU`);
});
