// Greedy line breaking for slide text. Pure: widths come from a measure
// function, so the rules are testable without a canvas.

/** Width of a string in the caller's units (logical pixels for the renderer). */
export type MeasureWidth = (text: string) => number;

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export function graphemes(text: string): string[] {
  return Array.from(graphemeSegmenter.segment(text), (s) => s.segment);
}

// Scripts written without spaces: a line may break between any two of their
// characters. Hangul is left out on purpose, since Korean separates words with
// spaces and breaking a word mid-syllable-run reads badly; an over-long Korean
// word still breaks per character like any other over-long word.
const CJK_CHAR =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303F\uFF00-\uFFEF\u30FC]/u;

// Characters that must not start a line (closing punctuation, small kana,
// the prolonged sound mark) and ones that must not end a line (opening
// brackets), after the common subset of the Japanese kinsoku rules.
const NO_BREAK_BEFORE = new Set(
  Array.from(
    '、。，．・：；？！゛゜ヽヾゝゞ々ー’”）〕］｝〉》」』】〙〗〟｠»ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ!%),.:;?]}¢°·',
  ),
);
const NO_BREAK_AFTER = new Set(Array.from('‘“（〔［｛〈《「『【〘〖〝｟«([{¿¡'));
const HYPHENS = new Set(['-', '\u2010', '\u2013', '\u2014']);
const WHITESPACE = /^\s+$/u;
const LETTER = /[\p{L}\p{N}]/u;

interface Token {
  text: string;
  /** True when whitespace separated this token from the previous one on the same paragraph. */
  spaced: boolean;
}

function breakAllowedBetween(prev: string, next: string): boolean {
  if (NO_BREAK_BEFORE.has(next) || NO_BREAK_AFTER.has(prev)) return false;
  if (CJK_CHAR.test(prev) || CJK_CHAR.test(next)) return true;
  // "well-known" may wrap after its hyphen, but a leading "-5" may not.
  return HYPHENS.has(prev) && LETTER.test(next);
}

/**
 * Splits one paragraph into unbreakable tokens. Whitespace runs collapse into
 * one break opportunity (rendered as a single space when the line does not
 * break there), as in CSS `white-space: normal`.
 */
export function tokenize(paragraph: string): Token[] {
  const tokens: Token[] = [];
  let current = '';
  let spaced = false;
  let pendingSpace = false;
  let prev: string | undefined;
  for (const g of graphemes(paragraph)) {
    if (WHITESPACE.test(g)) {
      if (current !== '') {
        tokens.push({ text: current, spaced });
        current = '';
      }
      pendingSpace = tokens.length > 0;
      prev = undefined;
      continue;
    }
    if (current !== '' && prev !== undefined && breakAllowedBetween(prev, g)) {
      tokens.push({ text: current, spaced });
      current = '';
      spaced = false;
    }
    if (current === '') {
      spaced = pendingSpace;
      pendingSpace = false;
    }
    current += g;
    prev = g;
  }
  if (current !== '') tokens.push({ text: current, spaced });
  return tokens;
}

/** Breaks a word wider than the line between grapheme clusters (never inside an emoji sequence). */
function splitLongToken(text: string, maxWidth: number, measure: MeasureWidth): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const g of graphemes(text)) {
    if (current !== '' && measure(current + g) > maxWidth) {
      pieces.push(current);
      current = g;
    } else {
      current += g;
    }
  }
  if (current !== '') pieces.push(current);
  return pieces;
}

// Measurements are floats from a shaper; a hair of slack keeps a line that
// fits exactly from being pushed down by rounding.
const EPSILON = 0.01;

/**
 * Wraps text into lines no wider than `maxWidth`: breaks at spaces, between
 * CJK characters and after hyphens; inside a word only when that word alone is
 * wider than the line. `\n` forces a break and an empty paragraph stays an
 * empty line.
 */
export function wrapText(text: string, maxWidth: number, measure: MeasureWidth): string[] {
  const lines: string[] = [];
  const limit = maxWidth + EPSILON;
  for (const paragraph of text.replace(/\r\n?/g, '\n').split('\n')) {
    let line = '';
    for (const token of tokenize(paragraph)) {
      const candidate = line === '' ? token.text : line + (token.spaced ? ' ' : '') + token.text;
      if (measure(candidate) <= limit) {
        line = candidate;
        continue;
      }
      if (line !== '') lines.push(line);
      if (measure(token.text) <= limit) {
        line = token.text;
        continue;
      }
      const pieces = splitLongToken(token.text, limit, measure);
      line = pieces.pop() ?? '';
      lines.push(...pieces);
    }
    lines.push(line);
  }
  // Trailing blank paragraphs add empty space under the block that the client cannot see.
  while (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Like `wrapText`, but narrows the wrap width as far as it can without adding a
 * line, so a headline breaks into lines of similar length instead of leaving a
 * single word alone on the last line (CSS `text-wrap: balance`).
 */
export function wrapBalanced(text: string, maxWidth: number, measure: MeasureWidth): string[] {
  const greedy = wrapText(text, maxWidth, measure);
  if (greedy.length < 2) return greedy;
  let lo = 0;
  let hi = maxWidth;
  // Half a logical pixel is below what a reader can see at 3x output.
  while (hi - lo > 0.5) {
    const mid = (lo + hi) / 2;
    if (wrapText(text, mid, measure).length <= greedy.length) hi = mid;
    else lo = mid;
  }
  return wrapText(text, hi, measure);
}
