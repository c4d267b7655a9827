// Fonts for slide text. They ship inside npm packages (nothing is fetched at
// run time) and are registered with @napi-rs/canvas under our own family
// names, so the output never depends on the fonts a machine happens to have.
import { createRequire } from 'node:module';
import { GlobalFonts } from '@napi-rs/canvas';
import type { FontWeight } from './style.ts';

const require = createRequire(import.meta.url);

export const FAMILY_LATIN = 'Slotline Latin';
export const FAMILY_CJK_SC = 'Slotline CJK SC';
export const FAMILY_CJK_KR = 'Slotline CJK KR';
export const FAMILY_EMOJI = 'Slotline Emoji';

/**
 * Fallback order for every text run: Inter for Latin, Cyrillic and Greek;
 * Noto Sans SC for Chinese and Japanese (it carries kana as well as Han);
 * Noto Sans KR for Hangul, which the SC font lacks; Noto Color Emoji last.
 */
export const FONT_STACK = [FAMILY_LATIN, FAMILY_CJK_SC, FAMILY_CJK_KR, FAMILY_EMOJI]
  .map((family) => `"${family}"`)
  .join(', ');

interface FontFile {
  family: string;
  /** Module specifier resolved inside node_modules. */
  specifier: string;
}

const LATIN_FILES: FontFile[] = [
  { family: FAMILY_LATIN, specifier: '@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf' },
  { family: FAMILY_LATIN, specifier: '@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf' },
];

const FALLBACK_FILES: FontFile[] = [
  {
    family: FAMILY_CJK_SC,
    specifier: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  },
  {
    family: FAMILY_CJK_SC,
    specifier: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
  },
  {
    family: FAMILY_CJK_KR,
    specifier: '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf',
  },
  {
    family: FAMILY_CJK_KR,
    specifier: '@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf',
  },
  {
    family: FAMILY_EMOJI,
    // The package's single full-coverage file (COLRv1, vector), not its unicode-range slices.
    specifier: '@fontsource/noto-color-emoji/files/noto-color-emoji-emoji-400-normal.woff2',
  },
];

// Code point ranges Inter covers: Latin (with extensions, IPA and
// Vietnamese), combining marks, Greek, Cyrillic, general punctuation, currency
// and letterlike symbols. Anything else needs the fallback fonts.
const LATIN_RANGES: [number, number][] = [
  [0x09, 0x0d],
  [0x20, 0x52f],
  [0x1e00, 0x1fff],
  [0x2000, 0x214f],
];

function latinOnly(text: string): boolean {
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (!LATIN_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi)) return false;
  }
  return true;
}

let latinRegistered = false;
let fallbacksRegistered = false;
let generation = 0;

/** Changes whenever fonts are registered, so holders of a canvas context know to refresh it. */
export function fontGeneration(): number {
  return generation;
}

function register(files: FontFile[]): void {
  for (const file of files) {
    const path = require.resolve(file.specifier);
    if (GlobalFonts.registerFromPath(path, file.family) === null) {
      throw new Error(`could not load font ${file.specifier}`);
    }
  }
  generation++;
}

/**
 * Registers the fonts needed for `texts`, once per process. The CJK and emoji
 * fonts (about 35 MB) load only when some text needs them, which keeps a
 * Latin-only carousel's first render fast.
 */
export function ensureFonts(texts: Iterable<string> = []): void {
  if (!latinRegistered) {
    register(LATIN_FILES);
    latinRegistered = true;
  }
  if (fallbacksRegistered) return;
  for (const text of texts) {
    if (!latinOnly(text)) {
      registerAllFonts();
      return;
    }
  }
}

/** Registers every font now (for a process that prefers to pay the cost at start-up). */
export function registerAllFonts(): void {
  ensureFonts();
  if (fallbacksRegistered) return;
  register(FALLBACK_FILES);
  fallbacksRegistered = true;
}

/** Emoji runs (see text-runs.ts) start with the emoji font and fall back to the rest. */
const EMOJI_STACK = [FAMILY_EMOJI, FAMILY_LATIN, FAMILY_CJK_SC, FAMILY_CJK_KR]
  .map((family) => `"${family}"`)
  .join(', ');

/** A CSS font shorthand for the canvas; `sizePx` is in output pixels. */
export function cssFont(weight: FontWeight, sizePx: number, emoji = false): string {
  const stack = emoji ? EMOJI_STACK : FONT_STACK;
  return `${weight === 'bold' ? 'bold' : 'normal'} ${sizePx.toFixed(2)}px ${stack}`;
}
