import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenize, wrapBalanced, wrapText } from '../../src/media/render/line-breaking.ts';
import { resolvePaint, COLOR_HEX } from '../../src/media/render/palette.ts';
import { splitRuns } from '../../src/media/render/text-runs.ts';
import { STYLE_DEFAULTS, withStyleDefaults } from '../../src/media/render/style.ts';
import {
  alignedX,
  clampCentre,
  layoutTextElement,
  LINE_HEIGHT,
  lineBoxes,
  LOGICAL_HEIGHT,
  LOGICAL_WIDTH,
  SAFE_MARGIN,
} from '../../src/media/render/text-layout.ts';
import type { MeasureText } from '../../src/media/render/text-layout.ts';

// A monospace stand-in for the shaper: CJK and emoji are one em wide, every
// other character half an em. Widths in tests are then easy to reason about.
const WIDE =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Extended_Pictographic}\u3000-\u303F\uFF00-\uFFEF]/u;
const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function emWidth(text: string): number {
  let width = 0;
  for (const { segment } of graphemeSegmenter.segment(text)) width += WIDE.test(segment) ? 1 : 0.5;
  return width;
}
const measure: MeasureText = (text, font) => emWidth(text) * font.size;
function near(actual: number, expected: number, message?: string): void {
  assert.ok(Math.abs(actual - expected) < 1e-9, message ?? `${actual} != ${expected}`);
}
/** Width function for wrapText with 10 px per em. */
const at10 = (text: string): number => emWidth(text) * 10;

test('withStyleDefaults fills in the SPEC defaults', () => {
  assert.deepEqual(withStyleDefaults({ positionY: 40 }), { ...STYLE_DEFAULTS, positionY: 40 });
  assert.deepEqual(STYLE_DEFAULTS, {
    backgroundColor: 'none',
    textColor: 'white',
    fontSize: 16,
    fontWeight: 'normal',
    textAlign: 'center',
    textMode: 'stroke',
    positionX: 50,
    width: 88,
    padding: 0,
  });
});

test('withStyleDefaults keeps given values and clamps numbers to their SPEC ranges', () => {
  const given = withStyleDefaults({
    positionY: 10,
    textColor: 'yellow',
    textMode: 'snapchat',
    fontSize: 30,
    width: 50,
  });
  assert.equal(given.textColor, 'yellow');
  assert.equal(given.textMode, 'snapchat');
  assert.equal(given.fontSize, 30);
  assert.equal(given.width, 50);

  const wild = withStyleDefaults({
    positionY: 130,
    positionX: -5,
    fontSize: 200,
    width: 5,
    padding: 99,
  });
  assert.deepEqual(
    [wild.positionY, wild.positionX, wild.fontSize, wild.width, wild.padding],
    [100, 0, 72, 20, 20],
  );
  assert.equal(withStyleDefaults({ positionY: 50, fontSize: Number.NaN }).fontSize, 16);
});

test('Latin text wraps at spaces, filling each line greedily', () => {
  // 5 px per character at 10 px/em: 60 px holds 12 characters.
  assert.deepEqual(wrapText('the quick brown fox jumps over', 60, at10), [
    'the quick',
    'brown fox',
    'jumps over',
  ]);
  assert.deepEqual(wrapText('short', 60, at10), ['short']);
  for (const line of wrapText('the quick brown fox jumps over the lazy dog', 60, at10)) {
    assert.ok(at10(line) <= 60, line);
  }
});

test('runs of spaces collapse and leading/trailing spaces are dropped', () => {
  assert.deepEqual(wrapText('  hello    world  ', 200, at10), ['hello world']);
  assert.deepEqual(tokenize('a  b'), [
    { text: 'a', spaced: false },
    { text: 'b', spaced: true },
  ]);
});

test('a word wider than the line breaks inside the word, and only then', () => {
  const lines = wrapText('a supercalifragilistic word', 40, at10);
  assert.deepEqual(lines, ['a', 'supercal', 'ifragili', 'stic', 'word']);
  assert.equal(lines.slice(1, 4).join(''), 'supercalifragilistic');
  for (const line of lines) assert.ok(at10(line) <= 40, line);
  // A word that fits is moved down whole rather than split.
  assert.deepEqual(wrapText('ab abcdefg', 40, at10), ['ab', 'abcdefg']);
});

test('a long word never splits inside an emoji sequence or a combining mark', () => {
  const family = '👨‍👩‍👧';
  const lines = wrapText(family.repeat(5), 25, at10);
  assert.deepEqual(lines, [family.repeat(2), family.repeat(2), family]);
  const accented = 'e\u0301'.repeat(6);
  assert.deepEqual(wrapText(accented, 15, at10), ['e\u0301'.repeat(3), 'e\u0301'.repeat(3)]);
});

test('CJK text without spaces wraps per character', () => {
  assert.deepEqual(wrapText('我们每天早上八点发布', 30, at10), [
    '我们每',
    '天早上',
    '八点发',
    '布',
  ]);
  assert.deepEqual(wrapText('ひらがなとカタカナ', 40, at10), ['ひらがな', 'とカタカ', 'ナ']);
  // Mixed: a Latin word inside CJK stays whole.
  assert.deepEqual(wrapText('我们用TikTok发布', 40, at10), ['我们用', 'TikTok发', '布']);
});

test('CJK closing punctuation never starts a line and opening brackets never end one', () => {
  // Without the rule the line would break before "。".
  assert.deepEqual(wrapText('日本語。テスト', 30, at10), ['日本', '語。テ', 'スト']);
  assert.deepEqual(wrapText('今日は「晴れ」', 30, at10), ['今日は', '「晴', 'れ」']);
});

test('Korean wraps at spaces like Latin text', () => {
  assert.deepEqual(wrapText('오늘도 좋은 하루 보내세요', 70, at10), [
    '오늘도 좋은',
    '하루 보내세요',
  ]);
});

test('hyphenated words may wrap after the hyphen', () => {
  assert.deepEqual(wrapText('a well-known fact', 40, at10), ['a well-', 'known', 'fact']);
  assert.deepEqual(wrapText('-5 degrees', 40, at10), ['-5', 'degrees']);
});

test('newlines force breaks and an empty paragraph keeps an empty line', () => {
  assert.deepEqual(wrapText('one\ntwo\r\n\nthree', 200, at10), ['one', 'two', '', 'three']);
  assert.deepEqual(wrapText('trailing\n\n', 200, at10), ['trailing']);
});

test('balanced wrapping keeps the line count but evens out line lengths', () => {
  const text = 'How I grew my account to 100k in 30 days';
  const greedy = wrapText(text, 100, at10);
  const balanced = wrapBalanced(text, 100, at10);
  assert.equal(balanced.length, greedy.length);
  assert.equal(balanced.join(' '), text);
  const spread = (lines: string[]): number =>
    Math.max(...lines.map(at10)) - Math.min(...lines.map(at10));
  assert.ok(spread(balanced) < spread(greedy), `${balanced} vs ${greedy}`);
  assert.deepEqual(wrapBalanced('one line', 100, at10), ['one line']);
});

test('alignedX places a line inside the content box', () => {
  assert.equal(alignedX('left', 20, 100, 40), 20);
  assert.equal(alignedX('center', 20, 100, 40), 50);
  assert.equal(alignedX('right', 20, 100, 40), 80);
});

test('clampCentre keeps a span on the canvas with the safe margin', () => {
  assert.equal(clampCentre(180, 100, 360), 180);
  assert.equal(clampCentre(0, 100, 360), SAFE_MARGIN + 50);
  assert.equal(clampCentre(360, 100, 360), 360 - SAFE_MARGIN - 50);
  // Fits the canvas but not the margins, or not even the canvas: centred.
  assert.equal(clampCentre(0, 350, 360), 180);
  assert.equal(clampCentre(0, 500, 360), 180);
});

test('a block is centred on positionX/positionY and its lines follow textAlign', () => {
  const base = { positionY: 50, fontSize: 20, width: 30, textMode: 'plain' as const };
  const text = 'aaaa bb cccccc';
  for (const textAlign of ['left', 'center', 'right'] as const) {
    const layout = layoutTextElement(text, withStyleDefaults({ ...base, textAlign }), measure);
    const { block } = layout;
    near(block.x + block.width / 2, LOGICAL_WIDTH / 2);
    near(block.y + block.height / 2, LOGICAL_HEIGHT / 2);
    assert.equal(block.width, 108);
    near(block.height, layout.lines.length * 20 * LINE_HEIGHT);
    assert.ok(layout.lines.length >= 2, 'layout.lines.length >= 2');
    for (const line of layout.lines) {
      if (textAlign === 'left') near(line.x, block.x);
      if (textAlign === 'right') near(line.x + line.width, block.x + block.width);
      if (textAlign === 'center') near(line.x + line.width / 2, block.x + block.width / 2);
    }
  }
});

test('lines are stacked one line height apart with the baseline inside the line box', () => {
  const layout = layoutTextElement(
    'one two three four five six',
    withStyleDefaults({ positionY: 50, fontSize: 24, width: 40, textMode: 'plain' }),
    measure,
  );
  layout.lines.forEach((line, i) => {
    near(line.top, layout.block.y + i * layout.lineHeight);
    assert.ok(
      line.baseline > line.top && line.baseline < line.top + layout.lineHeight,
      'line.baseline > line.top && line.baseline < line.top + layout.lineHeight',
    );
  });
});

test('padding narrows the wrap width and grows the block', () => {
  const text = 'wordsmith wordsmith';
  const plain = withStyleDefaults({ positionY: 50, fontSize: 20, width: 60, textMode: 'plain' });
  const padded = { ...plain, padding: 20 };
  const a = layoutTextElement(text, plain, measure);
  const b = layoutTextElement(text, padded, measure);
  assert.deepEqual([a.lines.length, b.lines.length], [1, 2]);
  assert.equal(b.block.width, a.block.width);
  near(b.block.height, b.lines.length * 20 * LINE_HEIGHT + 40);
  for (const line of b.lines) {
    assert.ok(line.x >= b.block.x + 20 - 1e-9, 'line.x >= b.block.x + 20 - 1e-9');
    assert.ok(
      line.x + line.width <= b.block.x + b.block.width - 20 + 1e-9,
      'line.x + line.width <= b.block.x + b.block.width - 20 + 1e-9',
    );
  }
});

test('blocks pushed past an edge are moved back onto the canvas', () => {
  const corner = layoutTextElement(
    'top left',
    withStyleDefaults({ positionX: 0, positionY: 0, width: 40, textMode: 'plain' }),
    measure,
  );
  near(corner.block.x, SAFE_MARGIN);
  near(corner.block.y, SAFE_MARGIN);

  const bottomRight = layoutTextElement(
    'bottom right',
    withStyleDefaults({ positionX: 100, positionY: 100, width: 40, textMode: 'background' }),
    measure,
  );
  const { block } = bottomRight;
  near(block.x + block.width, LOGICAL_WIDTH - SAFE_MARGIN);
  near(block.y + block.height, LOGICAL_HEIGHT - SAFE_MARGIN);
  for (const box of bottomRight.boxes) {
    assert.ok(
      box.x + box.width <= LOGICAL_WIDTH && box.y + box.height <= LOGICAL_HEIGHT,
      'box.x + box.width <= LOGICAL_WIDTH && box.y + box.height <= LOGICAL_HEIGHT',
    );
  }
});

test('text too tall for the canvas shrinks until it fits', () => {
  const long = 'lorem ipsum dolor '.repeat(27).trim();
  const layout = layoutTextElement(
    long,
    withStyleDefaults({ positionY: 50, fontSize: 72, width: 100, textMode: 'plain' }),
    measure,
  );
  assert.ok(layout.fontSize < 72, 'layout.fontSize < 72');
  assert.ok(layout.block.height <= LOGICAL_HEIGHT, 'layout.block.height <= LOGICAL_HEIGHT');
  assert.ok(layout.block.y >= 0, 'layout.block.y >= 0');
  assert.equal(layout.lines.map((l) => l.text).join(' '), long);
});

test('background mode gives each non-empty line its own box; snapchat a full-width band', () => {
  const bg = layoutTextElement(
    'first line\n\nthird',
    withStyleDefaults({ positionY: 50, textMode: 'background' }),
    measure,
  );
  assert.equal(bg.lines.length, 3);
  assert.equal(bg.boxes.length, 2);
  assert.equal(bg.band, null);
  for (const [i, box] of bg.boxes.entries()) {
    const line = bg.lines[i === 0 ? 0 : 2];
    assert.ok(line !== undefined, 'line !== undefined');
    assert.ok(
      box.x < line.x && box.x + box.width > line.x + line.width,
      'box.x < line.x && box.x + box.width > line.x + line.width',
    );
    assert.ok(
      box.y < line.top && box.y + box.height > line.top + bg.lineHeight,
      'box.y < line.top && box.y + box.height > line.top + bg.lineHeight',
    );
  }

  const snap = layoutTextElement(
    'band',
    withStyleDefaults({ positionY: 30, textMode: 'snapchat', padding: 5 }),
    measure,
  );
  assert.deepEqual(snap.band, {
    x: 0,
    y: snap.block.y,
    width: LOGICAL_WIDTH,
    height: snap.block.height,
  });
  assert.equal(snap.boxes.length, 0);
  assert.ok(snap.block.height > 16 * LINE_HEIGHT + 10, 'snap.block.height > 16 * LINE_HEIGHT + 10');

  const stroke = layoutTextElement('x', withStyleDefaults({ positionY: 50 }), measure);
  assert.ok(stroke.outlineWidth > 0, 'stroke.outlineWidth > 0');
  assert.equal(stroke.boxes.length, 0);
});

test('neighbouring line boxes join: near edges snap, covered corners are square', () => {
  const r = 4;
  const boxes = lineBoxes(
    [
      { x: 10, y: 0, width: 100, height: 20 },
      { x: 12, y: 18, width: 60, height: 20 },
      null,
      { x: 0, y: 54, width: 50, height: 20 },
    ],
    r,
  );
  assert.equal(boxes.length, 3);
  const [a, b, c] = boxes;
  assert.ok(a && b && c, 'a && b && c');
  // Left edges 2 px apart snap together; the right edges differ too much.
  assert.equal(a.x, 10);
  assert.equal(b.x, 10);
  assert.equal(b.width, 62);
  // a: bottom-left is covered by b, bottom-right sticks out.
  assert.deepEqual(a.radii, [r, r, r, 0]);
  // b: top-left covered by a, top-right covered by the wider a.
  assert.deepEqual(b.radii, [0, 0, r, r]);
  // c follows an empty line: nothing touches it.
  assert.deepEqual(c.radii, [r, r, r, r]);
});

test('colours: outlines contrast with the text, background mode always shows a box', () => {
  assert.deepEqual(resolvePaint('stroke', 'white', 'none'), {
    text: COLOR_HEX.white,
    box: null,
    outline: '#000000',
  });
  assert.equal(resolvePaint('stroke', 'black', 'none').outline, '#FFFFFF');
  assert.equal(resolvePaint('stroke', 'yellow', 'none').outline, '#000000');
  assert.equal(resolvePaint('background', 'white', 'none').box, COLOR_HEX.black);
  assert.equal(resolvePaint('background', 'black', 'none').box, COLOR_HEX.white);
  assert.equal(resolvePaint('background', 'white', 'red').box, COLOR_HEX.red);
  // Same colour for text and box would hide the text.
  assert.deepEqual(resolvePaint('background', 'yellow', 'yellow'), {
    text: COLOR_HEX.black,
    box: COLOR_HEX.yellow,
    outline: null,
  });
  assert.deepEqual(resolvePaint('plain', 'blue', 'red'), {
    text: COLOR_HEX.blue,
    box: null,
    outline: null,
  });
  assert.equal(resolvePaint('snapchat', 'white', 'none').box, null);
});

test('emoji clusters get their own runs so they are set in the colour emoji font', () => {
  assert.deepEqual(splitRuns('plain text'), [{ text: 'plain text', emoji: false }]);
  assert.deepEqual(splitRuns(''), []);
  assert.deepEqual(splitRuns('I ❤️ it 😀🔥!'), [
    { text: 'I ', emoji: false },
    { text: '❤️', emoji: true },
    { text: ' it ', emoji: false },
    { text: '😀🔥', emoji: true },
    { text: '!', emoji: false },
  ]);
  // Text-presentation characters without U+FE0F stay text; keycaps, flags,
  // skin tones and ZWJ families are whole emoji clusters.
  assert.deepEqual(splitRuns('❤ © 1'), [{ text: '❤ © 1', emoji: false }]);
  assert.deepEqual(
    splitRuns('1️⃣🇯🇵👍🏽👨‍👩‍👧').map((r) => r.emoji),
    [true],
  );
  assert.deepEqual(
    splitRuns('中文😀한국어').map((r) => r.text),
    ['中文', '😀', '한국어'],
  );
});
