// Issue 9: the first slice header of the first picture, read against its parameter
// sets (h264-slice.ts, hevc-slice.ts). Each case is a file ffmpeg 4.1 cannot decode a
// first frame from: regressions the differential fuzz found, or a small mutation of a
// valid fixture (which probe.test.ts shows accepted).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { boxOffsets } from '../../scripts/fuzz-mutations.ts';
import { BitReader } from '../../src/media/probe/bits.ts';
import { MEDIA_FIXTURES as FIXTURES, probeReason as reason } from '../helpers/probe-fixtures.ts';

function fixture(name: string): Buffer {
  return readFileSync(join(FIXTURES, name));
}

/** Offset of the first slice NAL unit of the first sample (first `stco` chunk, 4-byte lengths). */
function firstSlice(bytes: Buffer, isSlice: (header: number) => boolean): number {
  const stco = boxOffsets(bytes).find((b) => b.type === 'stco');
  assert.ok(stco);
  let pos = bytes.readUInt32BE(stco.at + 16);
  for (;;) {
    const length = bytes.readUInt32BE(pos);
    if (isSlice(bytes[pos + 4] ?? 0)) return pos + 4;
    pos += 4 + length;
  }
}

/**
 * Rewrites the first three fields of the H.264 slice at `at` (first_mb_in_slice,
 * slice_type, pic_parameter_set_id), keeping the unit's length: the bits after them
 * shift and the tail is cut or zero-filled, which no check here reads.
 */
function rewriteH264Slice(bytes: Buffer, at: number, fields: { firstMb?: number; ppsId?: number }) {
  const length = bytes.readUInt32BE(at - 4);
  const nal = bytes.subarray(at, at + length);
  const r = new BitReader(Uint8Array.from(nal));
  r.skip(8);
  const firstMb = r.ue();
  const sliceType = r.ue();
  const ppsId = r.ue();
  const bits: number[] = [];
  const put = (v: number, n: number) => {
    for (let i = n - 1; i >= 0; i -= 1) bits.push(Math.floor(v / 2 ** i) % 2);
  };
  const ue = (v: number) => {
    const n = Math.floor(Math.log2(v + 1));
    put(0, n);
    put(v + 1, n + 1);
  };
  put(nal[0] ?? 0, 8);
  ue(fields.firstMb ?? firstMb);
  ue(sliceType);
  ue(fields.ppsId ?? ppsId);
  while (bits.length < length * 8) bits.push(r.position < length * 8 ? r.u(1) : 0);
  for (let i = 0; i < length; i += 1) {
    bytes[at + i] = bits.slice(i * 8, i * 8 + 8).reduce((v, b) => v * 2 + b, 0);
  }
}

const h264Slice = (header: number) => [1, 5].includes(header & 0x1f);
const hevcSlice = (header: number) => ((header >> 1) & 0x3f) < 32;

test('H.264: deblocking offsets out of -6..6 are refused (fuzz regression)', async () => {
  const bytes = fixture('regressions/video-baf81a5b479b5834.bin');
  assert.match((await reason(bytes)) ?? '', /first slice has slice_beta_offset_div2 5006/);
});

test('H.264: a redundant first picture is refused (fuzz regression)', async () => {
  const bytes = fixture('regressions/video-fefce9eb6575793a.bin');
  assert.match((await reason(bytes)) ?? '', /first slice is a redundant picture/);
});

test('H.264: an SPS read past its stop bit is refused (fuzz regression)', async () => {
  const bytes = fixture('regressions/video-002f57e7b8bed609.bin');
  assert.match((await reason(bytes)) ?? '', /avcC SPS overreads its VUI by 2 bits/);
});

test('H.264: first_mb_in_slice past the picture is refused', async () => {
  const bytes = fixture('h264-noaudio.mp4');
  assert.equal(await reason(bytes), null);
  rewriteH264Slice(bytes, firstSlice(bytes, h264Slice), { firstMb: 60 }); // 10x6 macroblocks
  assert.match((await reason(bytes)) ?? '', /first slice has first_mb_in_slice 60, out of range/);
});

test('H.264: a first slice naming a PPS the record lacks is refused', async () => {
  const bytes = fixture('h264-noaudio.mp4');
  rewriteH264Slice(bytes, firstSlice(bytes, h264Slice), { ppsId: 2 });
  assert.match((await reason(bytes)) ?? '', /first slice refers to PPS 2/);
});

test('HEVC: a first slice that does not start its picture is refused', async () => {
  const bytes = fixture('hevc-aac.mp4');
  assert.equal(await reason(bytes), null);
  const at = firstSlice(bytes, hevcSlice);
  bytes[at + 2] = (bytes[at + 2] ?? 0) & 0x7f; // first_slice_segment_in_pic_flag
  assert.match((await reason(bytes)) ?? '', /first slice does not start its picture/);
});

test('HEVC: a unit the NAL splitter drops (forbidden bit) is not taken as the first slice', async () => {
  const bytes = fixture('hevc-aac.mp4');
  const at = firstSlice(bytes, hevcSlice);
  bytes[at + 2] = (bytes[at + 2] ?? 0) & 0x7f; // would be refused as the first slice...
  bytes[at] = (bytes[at] ?? 0) | 0x80; // ...but ffmpeg never parses this unit
  assert.equal(await reason(bytes), null);
});
