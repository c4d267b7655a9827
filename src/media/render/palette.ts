// The named colours of SPEC 2.3 mapped to the RGB values the renderer paints.
// Pure primaries look harsh on photos; these are the slightly softened tones
// social apps use for caption text, and are documented in docs/rendering.
import type { BackgroundColor, TextColor, TextMode } from './style.ts';

export const COLOR_HEX = {
  white: '#FFFFFF',
  black: '#111111',
  red: '#FF3B30',
  yellow: '#FFD60A',
  blue: '#0A84FF',
} as const satisfies Record<TextColor, string>;

/** Outline colours of `stroke` mode: dark around light text, light around black text. */
const OUTLINE_DARK = '#000000';
const OUTLINE_LIGHT = '#FFFFFF';

/** SPEC: the snapchat band is translucent black; 60 % keeps the photo visible behind it. */
export const SNAPCHAT_BAND = 'rgba(0, 0, 0, 0.6)';

export function outlineColor(textColor: TextColor): string {
  return textColor === 'black' ? OUTLINE_LIGHT : OUTLINE_DARK;
}

export interface TextPaint {
  /** Fill colour of the glyphs. */
  text: string;
  /** Colour of the rounded box behind each line (`background` mode only). */
  box: string | null;
  /** Outline colour (`stroke` mode only). */
  outline: string | null;
}

/**
 * Resolves the colours one text element paints with.
 *
 * `background` mode with `backgroundColor: none` still needs a box, or it would
 * look the same as `plain`: it gets black behind light text and white behind
 * black text. When the box colour equals the text colour the text would vanish,
 * so the text switches to the contrasting black or white instead.
 */
export function resolvePaint(
  mode: TextMode,
  textColor: TextColor,
  backgroundColor: BackgroundColor,
): TextPaint {
  if (mode === 'background') {
    const boxName: TextColor =
      backgroundColor === 'none' ? (textColor === 'black' ? 'white' : 'black') : backgroundColor;
    let textName: TextColor = textColor;
    if (boxName === textColor) textName = textColor === 'black' ? 'white' : 'black';
    return { text: COLOR_HEX[textName], box: COLOR_HEX[boxName], outline: null };
  }
  if (mode === 'stroke') {
    return { text: COLOR_HEX[textColor], box: null, outline: outlineColor(textColor) };
  }
  return { text: COLOR_HEX[textColor], box: null, outline: null };
}
