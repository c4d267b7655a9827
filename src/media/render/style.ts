// Slide and text-style types (SPEC 2.3) and the defaults the renderer applies.

export const BACKGROUND_COLORS = ['none', 'black', 'white', 'red', 'yellow', 'blue'] as const;
export const TEXT_COLORS = ['white', 'black', 'red', 'yellow', 'blue'] as const;
export const FONT_WEIGHTS = ['normal', 'bold'] as const;
export const TEXT_ALIGNS = ['left', 'center', 'right'] as const;
export const TEXT_MODES = ['stroke', 'background', 'plain', 'snapchat'] as const;
export const IMAGE_FITS = ['fit', 'fill'] as const;
export const SLIDE_ROLES = ['hook', 'middle', 'cta'] as const;

export type BackgroundColor = (typeof BACKGROUND_COLORS)[number];
export type TextColor = (typeof TEXT_COLORS)[number];
export type FontWeight = (typeof FONT_WEIGHTS)[number];
export type TextAlign = (typeof TEXT_ALIGNS)[number];
export type TextMode = (typeof TEXT_MODES)[number];
export type ImageFit = (typeof IMAGE_FITS)[number];
export type SlideRole = (typeof SLIDE_ROLES)[number];

/** A text style as a client sends it: everything but `positionY` may be left out. */
export interface TextStyle {
  backgroundColor?: BackgroundColor;
  textColor?: TextColor;
  fontSize?: number;
  fontWeight?: FontWeight;
  textAlign?: TextAlign;
  textMode?: TextMode;
  positionX?: number;
  positionY: number;
  width?: number;
  padding?: number;
}

/** A text style with every SPEC default filled in and numbers clamped to their ranges. */
export type ResolvedTextStyle = Required<TextStyle>;

export interface TextElement {
  content: string;
  style: TextStyle;
}

export interface SlideSpec {
  /** Upload id of the slide's image; the renderer receives the bytes separately. */
  image: string;
  textElements: TextElement[];
  imageFit?: ImageFit;
  role?: SlideRole;
}

/** SPEC 2.3 numeric ranges, used to clamp values that slipped past validation. */
export const STYLE_LIMITS = {
  fontSize: { min: 6, max: 72 },
  positionX: { min: 0, max: 100 },
  positionY: { min: 0, max: 100 },
  width: { min: 20, max: 100 },
  padding: { min: 0, max: 20 },
} as const;

export const STYLE_DEFAULTS = {
  backgroundColor: 'none',
  textColor: 'white',
  fontSize: 16,
  fontWeight: 'normal',
  textAlign: 'center',
  textMode: 'stroke',
  positionX: 50,
  width: 88,
  padding: 0,
} as const satisfies Omit<ResolvedTextStyle, 'positionY'>;

export const DEFAULT_IMAGE_FIT: ImageFit = 'fill';

function clampNumber(
  value: number | undefined,
  limits: { min: number; max: number },
  fallback: number,
): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(limits.max, Math.max(limits.min, value));
}

/**
 * Fills in SPEC 2.3 defaults. Requests are validated before they reach the
 * renderer, so the clamping only guards direct library callers against values
 * that would break the layout (a NaN size, a negative width).
 */
export function withStyleDefaults(style: TextStyle): ResolvedTextStyle {
  return {
    backgroundColor: style.backgroundColor ?? STYLE_DEFAULTS.backgroundColor,
    textColor: style.textColor ?? STYLE_DEFAULTS.textColor,
    fontSize: clampNumber(style.fontSize, STYLE_LIMITS.fontSize, STYLE_DEFAULTS.fontSize),
    fontWeight: style.fontWeight ?? STYLE_DEFAULTS.fontWeight,
    textAlign: style.textAlign ?? STYLE_DEFAULTS.textAlign,
    textMode: style.textMode ?? STYLE_DEFAULTS.textMode,
    positionX: clampNumber(style.positionX, STYLE_LIMITS.positionX, STYLE_DEFAULTS.positionX),
    positionY: clampNumber(style.positionY, STYLE_LIMITS.positionY, 50),
    width: clampNumber(style.width, STYLE_LIMITS.width, STYLE_DEFAULTS.width),
    padding: clampNumber(style.padding, STYLE_LIMITS.padding, STYLE_DEFAULTS.padding),
  };
}
