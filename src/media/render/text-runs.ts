// Splits a line into runs set in the text fonts and runs set in the emoji
// font. Inter carries text-style glyphs for some emoji code points (❤ ☀ ▶),
// and the shaper does not let a following U+FE0F (emoji presentation) pick a
// different font, so "❤️" would come out as a flat white heart. Choosing the
// font per grapheme cluster here gives such clusters the colour glyph.

export interface TextRun {
  text: string;
  emoji: boolean;
}

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

// A cluster is shown as emoji when it asks for it (U+FE0F, a keycap, a skin
// tone, a flag) or when its character defaults to emoji presentation.
const EMOJI_CLUSTER =
  /\uFE0F|\u20E3|\p{Emoji_Presentation}|\p{Emoji_Modifier}|\p{Regional_Indicator}/u;

export function isEmojiCluster(cluster: string): boolean {
  return EMOJI_CLUSTER.test(cluster);
}

/** Runs in reading order; adjacent clusters of the same kind share a run. */
export function splitRuns(text: string): TextRun[] {
  if (!EMOJI_CLUSTER.test(text)) return text === '' ? [] : [{ text, emoji: false }];
  const runs: TextRun[] = [];
  for (const { segment } of graphemeSegmenter.segment(text)) {
    const emoji = isEmojiCluster(segment);
    const last = runs[runs.length - 1];
    if (last !== undefined && last.emoji === emoji) last.text += segment;
    else runs.push({ text: segment, emoji });
  }
  return runs;
}
