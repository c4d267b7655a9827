// Issue 9: only decodable videos become ready. Each check of the sample tables and the
// parameter sets, on a small mutated copy of a real fixture, and the 422 message it
// ends in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeMp4 } from '../../src/media/probe/mp4.ts';
import { inspectVideo } from '../../src/media/probe/video-rules.ts';

import { MEDIA_FIXTURES as FIXTURES, loadBoxes as load } from '../helpers/probe-fixtures.ts';
const tmp = mkdtempSync(join(tmpdir(), 'slotline-tables-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
let count = 0;

async function expectRejected(bytes: Buffer, message: RegExp): Promise<void> {
  count += 1;
  const path = join(tmp, `input-${count}.mp4`);
  writeFileSync(path, bytes);
  const probe = await probeMp4(path);
  assert.equal(probe.ok, false, `accepted; expected ${message}`);
  if (probe.ok) return;
  assert.equal(probe.unexpected, false, `parser defect: ${probe.reason}`);
  assert.match(probe.reason, message);
  const outcome = await inspectVideo(path, { filename: 'a.mp4', contentType: 'video/mp4' });
  assert.ok(!outcome.ok && outcome.code === 'invalid_media_specs');
  assert.match(outcome.error, message);
}

const rename = (bytes: Buffer, at: number, type: string) => bytes.write(type, at + 4, 'latin1');

test('tables: every mandatory sample-table box is required', async () => {
  for (const [type, message] of [
    ['stsz', /video track 1 has no 'stsz' or 'stz2' \(sample size\) box/],
    ['stsc', /video track 1 has no 'stsc' \(sample-to-chunk\) box/],
    ['stco', /video track 1 has no 'stco' or 'co64' \(chunk offset\) box/],
  ] as const) {
    const { bytes, at } = load('h264-noaudio.mp4');
    rename(bytes, at(type), 'free');
    await expectRejected(bytes, message);
  }
  const { bytes, at } = load('h264-noaudio.mp4');
  rename(bytes, at('hdlr'), 'free');
  await expectRejected(bytes, /track 1 has no 'hdlr' \(handler\) box/);
});

test('tables: stts, stsz and stsc must count the same samples', async () => {
  // h264-noaudio: 60 frames, one stts entry of 60, all in one chunk.
  const a = load('h264-noaudio.mp4');
  a.bytes.writeUInt32BE(59, a.at('stts') + 16);
  await expectRejected(a.bytes, /video track 1: stsz has 60 samples but stts has 59/);

  const b = load('h264-noaudio.mp4');
  b.bytes.writeUInt32BE(50, b.at('stsc') + 20); // samples_per_chunk of the only entry
  await expectRejected(b.bytes, /video track 1: stsc places 50 samples in 1 chunk but stsz has 60/);

  const c = load('h264-noaudio.mp4');
  c.bytes.writeUInt32BE(2, c.at('stsc') + 16); // first_chunk 2 of a 1-chunk table
  await expectRejected(c.bytes, /video track 1: stsc entry 1 starts at chunk 2/);

  const d = load('h264-noaudio.mp4');
  d.bytes.writeUInt32BE(0, d.at('stsc') + 20);
  await expectRejected(d.bytes, /video track 1: stsc entry 1 has 0 samples per chunk/);
});

test('tables: every chunk and sample range lies inside the file and inside mdat', async () => {
  const a = load('h264-noaudio.mp4');
  a.bytes.writeUInt32BE(99999, a.at('stco') + 16);
  await expectRejected(
    a.bytes,
    new RegExp(
      `video track 1: chunk 1 offset 99999 is past the end of the file \\(${a.bytes.length} bytes\\)`,
    ),
  );

  const b = load('h264-noaudio.mp4');
  b.bytes.writeUInt32BE(b.bytes.length - 100, b.at('stco') + 16);
  await expectRejected(
    b.bytes,
    /video track 1: chunk 1 \(bytes \d+-\d+\) runs past the end of the file/,
  );

  // Samples that start in mdat but end in moov.
  const c = load('h264-noaudio.mp4');
  c.bytes.writeUInt32BE(48 + 1000, c.at('stco') + 16);
  await expectRejected(
    c.bytes,
    /video track 1: chunk 1 \(bytes \d+-\d+\) is not inside an 'mdat' box/,
  );

  // One sample size grown past its chunk's room.
  const d = load('h264-noaudio.mp4');
  d.bytes.writeUInt32BE(0x7fffff, d.at('stsz') + 20);
  await expectRejected(
    d.bytes,
    /video track 1: chunk 1 \(bytes \d+-\d+\) runs past the end of the file/,
  );
});

test('tables: absurd sample counts are refused before any loop over them', async () => {
  const a = load('h264-noaudio.mp4');
  const stsz = a.at('stsz');
  a.bytes.writeUInt32BE(1, stsz + 12); // constant size 1: the count needs no entries
  a.bytes.writeUInt32BE(0xfffffff0, stsz + 16);
  a.bytes.writeUInt32BE(0xfffffff0, a.at('stts') + 16);
  await expectRejected(
    a.bytes,
    /video track 1 declares 4294967280 samples, more than the \d+ accepted/,
  );
});

test('tables: a video track needs a sync sample', async () => {
  const a = load('h264-noaudio.mp4');
  a.bytes.writeUInt32BE(0, a.at('stss') + 12);
  await expectRejected(a.bytes, /video track 1: stss lists no sync sample/);

  const b = load('h264-noaudio.mp4');
  b.bytes.writeUInt32BE(61, b.at('stss') + 16);
  await expectRejected(b.bytes, /video track 1: stss entry 1 is sample 61 of 60/);
});

test('parameter sets: avcC needs an SPS and a PPS that parse, with fields in range', async () => {
  // avcC payload: version, profile, compat, level, lengthSize, numSPS, len, SPS..., numPPS.
  const a = load('h264-noaudio.mp4');
  const avcC = a.at('avcC') + 8;
  a.bytes[avcC + 5] = 0xe0;
  await expectRejected(a.bytes, /video track 1: avcC has no SPS/);

  const b = load('h264-noaudio.mp4');
  const spsLength = b.bytes.readUInt16BE(b.at('avcC') + 8 + 6);
  b.bytes[b.at('avcC') + 8 + 8 + spsLength] = 0;
  await expectRejected(b.bytes, /video track 1: avcC has no PPS/);

  const c = load('h264-noaudio.mp4');
  c.bytes[c.at('avcC') + 8 + 9] = 0; // profile_idc in the SPS itself
  await expectRejected(c.bytes, /video track 1: avcC SPS profile_idc 0 is not an H\.264 profile/);

  const d = load('h264-noaudio.mp4');
  d.bytes[d.at('avcC') + 8 + 8] = 0x68; // the SPS slot holds a PPS NAL
  await expectRejected(d.bytes, /video track 1: avcC SPS is a NAL unit of type 8/);

  const e = load('h264-noaudio.mp4');
  e.bytes.writeUInt16BE(3, e.at('avcC') + 8 + 6); // SPS cut to three bytes
  await expectRejected(e.bytes, /video track 1: avcC SPS/);
});

test('parameter sets: hvcC needs VPS, SPS and PPS arrays', async () => {
  const a = load('hevc-aac.mp4');
  a.bytes[a.at('hvcC') + 8 + 22] = 0; // numOfArrays
  await expectRejected(a.bytes, /video track 1: hvcC has no VPS/);

  const b = load('hevc-aac.mp4');
  const hvcC = b.at('hvcC') + 8;
  // The VPS turned into an SEI (type 39) by its NAL header: the SPS then has no VPS.
  const vps = hvcC + 23 + 3 + 2;
  assert.equal(b.bytes[vps], 0x40);
  b.bytes[vps] = 39 << 1;
  await expectRejected(
    b.bytes,
    /video track 1: hvcC SPS refers to VPS 0, which hvcC does not hold/,
  );
});

test('fragments: run data must lie inside the file', async () => {
  const a = load('fragmented.mp4');
  const trun = a.at('trun');
  // trun flags 0x000f01 (data offset present): the offset follows the sample count.
  assert.equal(a.bytes.readUInt8(trun + 11) & 1, 1);
  a.bytes.writeUInt32BE(0x7ffffff0, trun + 16);
  await expectRejected(
    a.bytes,
    /video track 1: fragment 1 has sample data \(bytes \d+-\d+\) past the end of the file/,
  );
});

test('every valid fixture still passes and its tables are read', async () => {
  for (const name of [
    'h264-aac-faststart.mp4',
    'h264-aac-moov-end.mp4',
    'h264-noaudio.mp4',
    'hevc-aac.mp4',
    'hevc-hev1-noaudio.mp4',
    'h264-aac.mov',
    'fragmented.mp4',
    'fps-60.mp4',
    'duration-180.mp4',
    'size-3840x2160-rotated.mp4',
  ]) {
    const probe = await probeMp4(join(FIXTURES, name));
    assert.ok(probe.ok, `${name}: ${probe.ok ? '' : probe.reason}`);
  }
});
