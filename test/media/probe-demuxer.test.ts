// Issue 9: structures ffmpeg's mov demuxer refuses or plays as nothing, found by the
// differential fuzz. Each check on a small mutated copy of a real fixture; the valid
// fixtures themselves are covered by probe.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyMutations, boxOffsets } from '../../scripts/fuzz-mutations.ts';
import {
  MEDIA_FIXTURES as FIXTURES,
  loadBoxes as load,
  probeReason as reason,
} from '../helpers/probe-fixtures.ts';

/** `h264-aac-faststart.mp4`: its video track's edit list is one edit at media time 1024. */
const EDITED = 'h264-aac-faststart.mp4';

test('edit list: an edit of duration 0 presents no frame', async () => {
  const { bytes, at } = load(EDITED);
  assert.equal(await reason(bytes), null);
  bytes.writeUInt32BE(0, at('elst') + 16); // first entry's segment_duration
  assert.match((await reason(bytes)) ?? '', /video track 1: the edit list presents no sample/);
});

test('edit list: an edit starting after every sample presents no frame', async () => {
  const { bytes, at } = load(EDITED);
  bytes.writeUInt32BE(0x7fff0000, at('elst') + 20); // media_time far past the end
  assert.match((await reason(bytes)) ?? '', /the edit list presents no sample/);
});

test('edit list: a negative media time other than -1 is refused', async () => {
  const { bytes, at } = load(EDITED);
  bytes.writeInt32BE(-5, at('elst') + 20);
  assert.match((await reason(bytes)) ?? '', /edit 1 has media time -5/);
});

test('dref: a data reference box without entries or with a short entry is refused', async () => {
  const { bytes, at } = load('h264-noaudio.mp4');
  const dref = at('dref');
  bytes.writeUInt32BE(0, dref + 12);
  assert.match((await reason(bytes)) ?? '', /'dref' has no entry/);
  bytes.writeUInt32BE(1, dref + 12);
  bytes.writeUInt32BE(8, dref + 16);
  assert.match((await reason(bytes)) ?? '', /data reference 1 has an invalid size of 8 bytes/);
  bytes.writeUInt32BE(0x64726566, dref + 12); // a nested 'dref' read as the entry count
  assert.match((await reason(bytes)) ?? '', /declares \d+ data references/);
});

test('nesting: atoms the demuxer descends into count, up to its 10 levels', async () => {
  const bytes = readFileSync(join(FIXTURES, 'h264-noaudio.mp4'));
  const seed = {
    name: 'h264-noaudio.mp4',
    kind: 'video' as const,
    bytes,
    boxes: boxOffsets(bytes),
  };
  const udta = seed.boxes.findIndex((b) => b.type === 'udta');
  assert.ok(udta >= 0);
  // Measured with the packaged ffmpeg: 6 extra udta levels open, 7 do not (udta holds
  // meta and ilst, two more lists).
  assert.equal(await reason(applyMutations(seed, [{ op: 'nest', box: udta, depth: 6 }])), null);
  assert.match(
    (await reason(applyMutations(seed, [{ op: 'nest', box: udta, depth: 7 }]))) ?? '',
    /nested deeper than the 10 levels/,
  );
});

test('lead samples: a NAL length past the second sample is refused, not only the first', async () => {
  // ffmpeg holds the first picture until the next packets of its reordering window
  // arrive; when they cannot be split into NAL units the decode fails.
  const { bytes, at } = load('h264-noaudio.mp4');
  const sizes = at('stsz') + 20; // version/flags, sample_size, sample_count
  // Sample 2 one byte longer, sample 3 one shorter: the chunk still fits its mdat.
  bytes.writeUInt32BE(bytes.readUInt32BE(sizes + 4) + 1, sizes + 4);
  bytes.writeUInt32BE(bytes.readUInt32BE(sizes + 8) - 1, sizes + 8);
  assert.match((await reason(bytes)) ?? '', /NAL unit at byte \d+ of a leading sample declares/);

  const fragmented = load('fragmented.mp4');
  const trun = fragmented.at('trun');
  // First trun: flags 0xa05 (data offset, first flags, size, composition offset).
  const second = trun + 24 + 8;
  fragmented.bytes.writeUInt32BE(fragmented.bytes.readUInt32BE(second) + 1, second);
  fragmented.bytes.writeUInt32BE(fragmented.bytes.readUInt32BE(second + 8) - 1, second + 8);
  assert.match((await reason(fragmented.bytes)) ?? '', /of a leading sample declares/);
});

test('edit list: a list of only empty edits presents no frame', async () => {
  // ffmpeg 4.1 rebuilds the index from the edits: an empty edit alone keeps no packet.
  const { bytes, at } = load(EDITED);
  bytes.writeInt32BE(-1, at('elst') + 20); // the only entry's media_time: an empty edit
  assert.match((await reason(bytes)) ?? '', /the edit list presents no sample \(it holds only/);
});

test('fragments: a track fragment of a track without trex defaults is refused', async () => {
  // ffmpeg 4.1 fails reading the file ("could not find corresponding trex").
  const { bytes, at } = load('fragmented.mp4');
  assert.equal(await reason(bytes), null);
  bytes.writeUInt32BE(99, at('trex', 1) + 12); // the audio track's trex now names track 99
  assert.match((await reason(bytes)) ?? '', /refers to track 2, which has no 'trex' defaults/);
});

test('pasp: a negative pixel aspect ratio is refused; a zero spacing is ignored', async () => {
  // ffmpeg 4.1 takes the signed spacings as the aspect ratio and its scaler refuses it.
  const { bytes, at } = load('size-3840x2160.mp4');
  bytes.writeInt32BE(0, at('pasp') + 12);
  assert.equal(await reason(bytes), null);
  bytes.writeInt32BE(-2, at('pasp') + 12); // vSpacing
  assert.match((await reason(bytes)) ?? '', /negative pixel aspect ratio 1:-2 in 'pasp'/);
});

test('lead samples: ffmpeg 4.1 framing refusals (empty unit, bare prefix, no unit)', async () => {
  // get_nalsize() fails on a length of 0 and on a prefix with nothing after it.
  const empty = readFileSync(join(FIXTURES, 'regressions/video-318b033fe714db30.bin'));
  assert.match(
    (await reason(empty)) ?? '',
    /the NAL unit at byte \d+ of a leading sample is empty/,
  );
  const { bytes, at } = load('h264-noaudio.mp4');
  const first = at('stsz') + 20;
  // The first sample takes the second one's length prefix: the chunk keeps its size.
  bytes.writeUInt32BE(bytes.readUInt32BE(first) + 4, first);
  bytes.writeUInt32BE(bytes.readUInt32BE(first + 4) - 4, first + 4);
  assert.match((await reason(bytes)) ?? '', /ends with a NAL length prefix and no unit/);
  // A 1-byte first sample: the splitter finds no unit, ffmpeg says "no frame!".
  const none = readFileSync(join(FIXTURES, 'regressions/video-b440092d0cbc7313.bin'));
  assert.match((await reason(none)) ?? '', /the first sample holds no NAL unit/);
});
