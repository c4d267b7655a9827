// Places one text element on the 360 x 640 logical canvas (DECISIONS 4).
// Pure: widths come from a measure function, so every rule here is unit-tested
// without drawing anything.
import { wrapBalanced } from './line-breaking.ts';
import type { FontWeight, ResolvedTextStyle, TextAlign, TextMode } from './style.ts';

export const LOGICAL_WIDTH = 360;
export const LOGICAL_HEIGHT = 640;
/** Output pixels per logical pixel: 360 x 640 becomes 1080 x 1920. */
export const RENDER_SCALE = 3;

/** Line advance as a multiple of the font size. */
export const LINE_HEIGHT = 1.25;

export interface FontSpec {
  /** Logical pixels. */
  size: number;
  weight: FontWeight;
}

/** Width of `text` in logical pixels when set in `font`. */
export type MeasureText = (text: string, font: FontSpec) => number;

/** Ascent and descent of the primary font, as fractions of the font size. */
export interface FontMetrics {
  ascent: number;
  descent: number;
}

/** Inter's hhea ascender/descender (1984 and 494 units of 2048). */
export const DEFAULT_METRICS: FontMetrics = { ascent: 0.96875, descent: 0.2412 };

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A background box; corner radii run top-left, top-right, bottom-right, bottom-left. */
export interface LineBox extends Rect {
  radii: [number, number, number, number];
}

export interface LaidOutLine {
  text: string;
  /** Left edge of the text. */
  x: number;
  /** Top of the line box. */
  top: number;
  /** Alphabetic baseline. */
  baseline: number;
  width: number;
}

export interface TextBlockLayout {
  /** The size actually used; smaller than requested only when the block had to shrink to fit. */
  fontSize: number;
  lineHeight: number;
  lines: LaidOutLine[];
  /** The whole block after clamping: text, padding and mode insets. */
  block: Rect;
  /** `background` mode: one rounded box per non-empty line. */
  boxes: LineBox[];
  /** `snapchat` mode: the full-width band. */
  band: Rect | null;
  /** `stroke` mode: outline width in logical pixels (half of it lies outside the glyphs). */
  outlineWidth: number;
}

/** Space between the text and the edge of what is drawn around it, per mode, in em. */
interface ModeInsets {
  x: number;
  y: number;
}

/**
 * Outline thickness of `stroke` mode: 15 % of the font size for bold and 12 %
 * for normal weight (a heavy outline swallows thin strokes), at least 1
 * logical px so small text keeps a visible edge.
 */
export function outlineWidthFor(fontSize: number, weight: FontWeight): number {
  return Math.max(1, fontSize * (weight === 'bold' ? 0.15 : 0.12));
}

function modeInsets(mode: TextMode, fontSize: number, weight: FontWeight): ModeInsets {
  switch (mode) {
    case 'background':
      // Boxes reach a little past the glyphs so descenders and accents sit inside.
      return { x: fontSize * 0.45, y: fontSize * 0.12 };
    case 'snapchat':
      return { x: 0, y: fontSize * 0.35 };
    case 'stroke': {
      const half = outlineWidthFor(fontSize, weight) / 2;
      return { x: half, y: half };
    }
    case 'plain':
      return { x: 0, y: 0 };
  }
}

export function alignedX(
  align: TextAlign,
  contentLeft: number,
  contentWidth: number,
  lineWidth: number,
): number {
  switch (align) {
    case 'left':
      return contentLeft;
    case 'center':
      return contentLeft + (contentWidth - lineWidth) / 2;
    case 'right':
      return contentLeft + contentWidth - lineWidth;
  }
}

/**
 * Space kept between a block and the canvas edge when the block is moved back
 * on the canvas: text touching the very edge looks cropped, and apps overlay
 * their own UI there.
 */
export const SAFE_MARGIN = 8;

/**
 * Moves a span of `size` centred on `centre` so it lies inside [margin,
 * extent - margin]; a span too large for that is centred on the canvas.
 */
export function clampCentre(
  centre: number,
  size: number,
  extent: number,
  margin: number = SAFE_MARGIN,
): number {
  const lo = Math.min(margin + size / 2, extent / 2);
  const hi = Math.max(extent - margin - size / 2, extent / 2);
  return Math.min(hi, Math.max(lo, centre));
}

interface Measured {
  fontSize: number;
  lines: string[];
  widths: number[];
  insets: ModeInsets;
  contentWidth: number;
  outerWidth: number;
  outerHeight: number;
}

function measureAt(
  content: string,
  style: ResolvedTextStyle,
  fontSize: number,
  measure: MeasureText,
): Measured {
  const font: FontSpec = { size: fontSize, weight: style.fontWeight };
  const insets = modeInsets(style.textMode, fontSize, style.fontWeight);
  const declaredWidth = (style.width / 100) * LOGICAL_WIDTH;
  const edge = style.padding + insets.x;
  // A narrow block with a lot of padding still keeps room for about one character per line.
  const contentWidth = Math.max(fontSize, declaredWidth - 2 * edge);
  // Balancing re-wraps the same text several times; remember each width.
  const widthCache = new Map<string, number>();
  const measureLine = (text: string): number => {
    let width = widthCache.get(text);
    if (width === undefined) {
      width = measure(text, font);
      widthCache.set(text, width);
    }
    return width;
  };
  const lines = wrapBalanced(content, contentWidth, measureLine);
  const widths = lines.map((line) => (line === '' ? 0 : measureLine(line)));
  return {
    fontSize,
    lines,
    widths,
    insets,
    contentWidth,
    outerWidth: Math.max(declaredWidth, contentWidth + 2 * edge),
    outerHeight: lines.length * fontSize * LINE_HEIGHT + 2 * (style.padding + insets.y),
  };
}

/**
 * Turns per-line rectangles (null for an empty line) into background boxes
 * that read as one shape, the way story editors draw them:
 *
 * - neighbouring edges closer than a corner radius are evened out, since two
 *   rounded corners a few pixels apart leave a notch;
 * - a corner is rounded only where it sticks out; where the neighbouring line's
 *   box covers it, it stays square so the boxes join without a seam.
 */
export function lineBoxes(rects: (Rect | null)[], radius: number): LineBox[] {
  const boxes = rects.map((r) => (r === null ? null : { ...r }));
  for (let i = 1; i < boxes.length; i++) {
    const a = boxes[i - 1];
    const b = boxes[i];
    if (a == null || b == null) continue;
    if (Math.abs(a.x - b.x) < radius) {
      const left = Math.min(a.x, b.x);
      a.width += a.x - left;
      b.width += b.x - left;
      a.x = left;
      b.x = left;
    }
    const right = Math.max(a.x + a.width, b.x + b.width);
    if (Math.abs(a.x + a.width - (b.x + b.width)) < radius) {
      a.width = right - a.x;
      b.width = right - b.x;
    }
  }
  const out: LineBox[] = [];
  boxes.forEach((box, i) => {
    if (box == null) return;
    const above = boxes[i - 1] ?? null;
    const below = boxes[i + 1] ?? null;
    const covered = (n: Rect | null, side: 'left' | 'right'): boolean =>
      n !== null &&
      (side === 'left' ? n.x <= box.x + 1e-6 : n.x + n.width >= box.x + box.width - 1e-6);
    const corner = (n: Rect | null, side: 'left' | 'right'): number =>
      covered(n, side) ? 0 : radius;
    out.push({
      ...box,
      radii: [
        corner(above, 'left'),
        corner(above, 'right'),
        corner(below, 'right'),
        corner(below, 'left'),
      ],
    });
  });
  return out;
}

/**
 * Lays out one text element.
 *
 * - The block is `width`% of the canvas wide; the text wraps inside it, less
 *   `padding` and the mode's inset on each side.
 * - `positionX`/`positionY` give the centre of the block; the block is then
 *   moved (never resized) so that it stays on the canvas, `SAFE_MARGIN` from
 *   the edges where it is small enough (a wider block is centred).
 * - If the wrapped text is taller than the canvas even so, the font shrinks in
 *   5 % steps (never below 6 px) until it fits, so no text is cut off.
 */
export function layoutTextElement(
  content: string,
  style: ResolvedTextStyle,
  measure: MeasureText,
  metrics: FontMetrics = DEFAULT_METRICS,
): TextBlockLayout {
  let m = measureAt(content, style, style.fontSize, measure);
  while (m.outerHeight > LOGICAL_HEIGHT && m.fontSize > 6) {
    m = measureAt(content, style, Math.max(6, m.fontSize * 0.95), measure);
  }

  const { fontSize, insets } = m;
  const lineHeight = fontSize * LINE_HEIGHT;
  const cx = clampCentre((style.positionX / 100) * LOGICAL_WIDTH, m.outerWidth, LOGICAL_WIDTH);
  const cy = clampCentre((style.positionY / 100) * LOGICAL_HEIGHT, m.outerHeight, LOGICAL_HEIGHT);
  const block: Rect = {
    x: cx - m.outerWidth / 2,
    y: cy - m.outerHeight / 2,
    width: m.outerWidth,
    height: m.outerHeight,
  };

  const edgeX = style.padding + insets.x;
  const edgeY = style.padding + insets.y;
  const contentLeft = cx - m.contentWidth / 2;
  // Centre the font's ascent+descent box in the line box.
  const baselineOffset =
    (lineHeight - (metrics.ascent + metrics.descent) * fontSize) / 2 + metrics.ascent * fontSize;

  const lines: LaidOutLine[] = m.lines.map((text, i) => {
    const width = m.widths[i] ?? 0;
    const top = block.y + edgeY + i * lineHeight;
    return {
      text,
      x: alignedX(style.textAlign, contentLeft, m.contentWidth, width),
      top,
      baseline: top + baselineOffset,
      width,
    };
  });

  const boxRadius = Math.min(fontSize * 0.35 + style.padding * 0.5, (lineHeight + 2 * edgeY) / 2);
  const boxes =
    style.textMode === 'background'
      ? lineBoxes(
          lines.map((line) =>
            line.text === ''
              ? null
              : {
                  x: line.x - edgeX,
                  y: line.top - edgeY,
                  width: line.width + 2 * edgeX,
                  height: lineHeight + 2 * edgeY,
                },
          ),
          boxRadius,
        )
      : [];

  return {
    fontSize,
    lineHeight,
    lines,
    block,
    boxes,
    band:
      style.textMode === 'snapchat'
        ? { x: 0, y: block.y, width: LOGICAL_WIDTH, height: block.height }
        : null,
    outlineWidth: style.textMode === 'stroke' ? outlineWidthFor(fontSize, style.fontWeight) : 0,
  };
}
