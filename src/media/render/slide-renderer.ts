// Renders carousel slides (SPEC 2.3, DECISIONS 4) into 1080 x 1920 JPEGs.
// A pure library: no HTTP, no storage; callers pass image bytes in and get
// JPEG bytes back.
import { createCanvas, ImageData } from '@napi-rs/canvas';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { backgroundPixels, OUTPUT_HEIGHT, OUTPUT_WIDTH } from './background.ts';
import { cssFont, ensureFonts, fontGeneration } from './fonts.ts';
import { resolvePaint, SNAPCHAT_BAND } from './palette.ts';
import { layoutTextElement, RENDER_SCALE } from './text-layout.ts';
import type { MeasureText, Rect, TextBlockLayout } from './text-layout.ts';
import { DEFAULT_IMAGE_FIT, withStyleDefaults } from './style.ts';
import { splitRuns } from './text-runs.ts';
import type { TextRun } from './text-runs.ts';
import type { FontWeight, ResolvedTextStyle, SlideSpec } from './style.ts';

export * from './style.ts';
export { COLOR_HEX, SNAPCHAT_BAND, resolvePaint } from './palette.ts';
export {
  LOGICAL_HEIGHT,
  LOGICAL_WIDTH,
  RENDER_SCALE,
  layoutTextElement,
  type TextBlockLayout,
} from './text-layout.ts';
export { OUTPUT_HEIGHT, OUTPUT_WIDTH, clearBackgroundCache } from './background.ts';
export { registerAllFonts } from './fonts.ts';

export const DEFAULT_JPEG_QUALITY = 88;

export interface RenderOptions {
  /** JPEG quality 1-100; 88 keeps text edges clean at roughly 100-400 KB a slide. */
  quality?: number;
}

// Measuring happens on its own tiny canvas so the font it last set is known
// (assigning ctx.font re-parses the shorthand, so repeats are skipped). The
// context is replaced after fonts are registered so that measuring and
// drawing always resolve fonts from the same set.
let measureCtx: SKRSContext2D | null = null;
let measureGeneration = -1;
let measureFont = '';

function measureRun(text: string, css: string): number {
  if (measureCtx === null || measureGeneration !== fontGeneration()) {
    measureCtx = createCanvas(1, 1).getContext('2d');
    measureGeneration = fontGeneration();
    measureFont = '';
  }
  if (css !== measureFont) {
    measureCtx.font = css;
    measureFont = css;
  }
  return measureCtx.measureText(text).width;
}

/** Output-pixel width of each run of a line, set at `sizePx`. */
function runWidths(runs: TextRun[], weight: FontWeight, sizePx: number): number[] {
  return runs.map((run) => measureRun(run.text, cssFont(weight, sizePx, run.emoji)));
}

const measure: MeasureText = (text, font) => {
  const widths = runWidths(splitRuns(text), font.weight, font.size * RENDER_SCALE);
  return widths.reduce((sum, w) => sum + w, 0) / RENDER_SCALE;
};

function scaled(rect: Rect): Rect {
  return {
    x: rect.x * RENDER_SCALE,
    y: rect.y * RENDER_SCALE,
    width: rect.width * RENDER_SCALE,
    height: rect.height * RENDER_SCALE,
  };
}

function drawElement(ctx: SKRSContext2D, layout: TextBlockLayout, style: ResolvedTextStyle): void {
  const paint = resolvePaint(style.textMode, style.textColor, style.backgroundColor);
  const s = RENDER_SCALE;

  if (layout.band !== null) {
    const band = scaled(layout.band);
    ctx.fillStyle = SNAPCHAT_BAND;
    ctx.fillRect(band.x, band.y, band.width, band.height);
  }

  if (paint.box !== null && layout.boxes.length > 0) {
    // One path for all boxes: where neighbouring lines overlap they merge into
    // one shape instead of stacking seams.
    ctx.beginPath();
    for (const box of layout.boxes) {
      const r = scaled(box);
      ctx.roundRect(
        r.x,
        r.y,
        r.width,
        r.height,
        box.radii.map((radius) => radius * s),
      );
    }
    ctx.fillStyle = paint.box;
    ctx.fill();
  }

  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  const sizePx = layout.fontSize * s;
  const placed = layout.lines
    .filter((line) => line.text !== '')
    .flatMap((line) => {
      const runs = splitRuns(line.text);
      const widths = runWidths(runs, style.fontWeight, sizePx);
      let x = line.x * s;
      return runs.map((run, i) => {
        const at = { run, x, y: line.baseline * s };
        x += widths[i] ?? 0;
        return at;
      });
    });

  if (paint.outline !== null) {
    ctx.strokeStyle = paint.outline;
    ctx.lineWidth = layout.outlineWidth * s;
    ctx.lineJoin = 'round';
    ctx.miterLimit = 2;
    // Emoji keep their own artwork: an outline would only ring them in black.
    for (const { run, x, y } of placed) {
      if (run.emoji) continue;
      ctx.font = cssFont(style.fontWeight, sizePx);
      ctx.strokeText(run.text, x, y);
    }
  }

  ctx.fillStyle = paint.text;
  for (const { run, x, y } of placed) {
    ctx.font = cssFont(style.fontWeight, sizePx, run.emoji);
    ctx.fillText(run.text, x, y);
  }
}

/** Computes where every text element of a slide goes, without drawing. */
export function layoutSlide(slide: SlideSpec): TextBlockLayout[] {
  ensureFonts(slide.textElements.map((e) => e.content));
  return slide.textElements.map((e) =>
    layoutTextElement(e.content, withStyleDefaults(e.style), measure),
  );
}

async function drawSlide(slide: SlideSpec, imageBytes: Buffer) {
  const pixels = await backgroundPixels(imageBytes, slide.imageFit ?? DEFAULT_IMAGE_FIT);
  ensureFonts(slide.textElements.map((e) => e.content));

  const canvas = createCanvas(OUTPUT_WIDTH, OUTPUT_HEIGHT);
  const ctx = canvas.getContext('2d');
  ctx.putImageData(new ImageData(pixels, OUTPUT_WIDTH, OUTPUT_HEIGHT), 0, 0);

  for (const element of slide.textElements) {
    const style = withStyleDefaults(element.style);
    drawElement(ctx, layoutTextElement(element.content, style, measure), style);
  }
  return canvas;
}

/** Renders one slide over its image into a 1080 x 1920 JPEG. */
export async function renderSlide(
  slide: SlideSpec,
  imageBytes: Buffer,
  options: RenderOptions = {},
): Promise<Buffer> {
  const canvas = await drawSlide(slide, imageBytes);
  const quality = Math.round(Math.min(100, Math.max(1, options.quality ?? DEFAULT_JPEG_QUALITY)));
  return canvas.encode('jpeg', quality);
}

/** Renders one slide as PNG (lossless), for previews and pixel-exact checks. */
export async function renderSlidePng(slide: SlideSpec, imageBytes: Buffer): Promise<Buffer> {
  const canvas = await drawSlide(slide, imageBytes);
  return canvas.encode('png');
}

/**
 * Renders a carousel's slides as JPEGs, in order. `images` maps each slide's `image` id to its
 * bytes; an image shared by several slides is decoded once. Slides render one
 * after another so memory stays at one canvas plus the decode cache.
 */
export async function renderSlides(
  slides: readonly SlideSpec[],
  images: ReadonlyMap<string, Buffer>,
  options: RenderOptions = {},
): Promise<Buffer[]> {
  ensureFonts(slides.flatMap((slide) => slide.textElements.map((e) => e.content)));
  const out: Buffer[] = [];
  for (const slide of slides) {
    const bytes = images.get(slide.image);
    if (bytes === undefined) throw new Error(`no image bytes for slide image ${slide.image}`);
    out.push(await renderSlide(slide, bytes, options));
  }
  return out;
}
