import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MOOV_MAX_BYTES,
  MAX_TOP_LEVEL_BOXES,
  probeMp4,
  probeMp4Source,
} from '../../src/media/probe/mp4.ts';
import type { Mp4Probe } from '../../src/media/probe/mp4.ts';
import { FileSource } from '../../src/media/probe/source.ts';
import { MediaReadError } from '../../src/media/probe/types.ts';
import { boxOffsets } from '../../scripts/fuzz-mutations.ts';
import type { VideoInfo } from '../../src/media/probe/types.ts';
import { VIDEO_LIMITS, checkVideoInfo, inspectVideo } from '../../src/media/probe/video-rules.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/media');
const fixture = (name: string) => join(FIXTURES, name);
const tmp = mkdtempSync(join(tmpdir(), 'slotline-probe-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
let tmpCount = 0;
function tempFile(bytes: Uint8Array): string {
  tmpCount += 1;
  const path = join(tmp, `input-${tmpCount}.mp4`);
  writeFileSync(path, bytes);
  return path;
}

const declaredFor = (name: string) => ({
  filename: name.replace(/\.webm$/, '.mp4'),
  contentType: name.endsWith('.mov') ? 'video/quicktime' : 'video/mp4',
});

// ---------------------------------------------------------------------------------
// Fixtures: the valid corpus and its expected properties.

type Expected = Partial<Omit<VideoInfo, 'tracks'>>;
const base: Expected = {
  container: 'mp4',
  brand: 'isom',
  fragmented: false,
  rotation: 0,
  encrypted: false,
};
const av = { ...base, width: 160, height: 90, durationSeconds: 2, frameRate: 30 };

const VALID: Record<string, Expected> = {
  'h264-aac-faststart.mp4': { ...av, videoCodec: 'h264', audioCodec: 'aac', hasAudio: true },
  'h264-aac-moov-end.mp4': { ...av, videoCodec: 'h264', audioCodec: 'aac', hasAudio: true },
  'h264-noaudio.mp4': { ...av, videoCodec: 'h264', audioCodec: null, hasAudio: false },
  'hevc-aac.mp4': { ...av, videoCodec: 'hevc', audioCodec: 'aac', hasAudio: true },
  'hevc-hev1-noaudio.mp4': { ...av, videoCodec: 'hevc', hasAudio: false },
  'h264-aac.mov': { ...av, container: 'mov', brand: 'qt  ', videoCodec: 'h264', audioCodec: 'aac' },
  'fragmented.mp4': {
    ...av,
    brand: 'iso5',
    fragmented: true,
    durationSeconds: 2.0667,
    videoCodec: 'h264',
    audioCodec: 'aac',
  },
  'fps-60.mp4': { ...base, width: 64, height: 36, frameRate: 60, durationSeconds: 1 },
  'fps-59.94.mp4': { ...base, width: 64, height: 36, frameRate: 59.94, durationSeconds: 1.001 },
  'duration-180.mp4': { ...base, width: 16, height: 16, durationSeconds: 180, frameRate: 1 },
  'size-2160x3840.mp4': { ...base, width: 2160, height: 3840, frameRate: 1 },
  'size-3840x2160.mp4': { ...base, width: 3840, height: 2160, frameRate: 1 },
  'size-3840x2160-rotated.mp4': { ...base, width: 2160, height: 3840, rotation: 270 },
};

function assertInfo(name: string, info: VideoInfo, expected: Expected): void {
  for (const [key, want] of Object.entries(expected)) {
    const got = info[key as keyof VideoInfo];
    if (typeof want === 'number' && !Number.isInteger(want)) {
      assert.ok(
        Math.abs((got as number) - want) < 0.005,
        `${name} ${key}: ${String(got)} != ${want}`,
      );
    } else {
      assert.equal(got, want, `${name} ${key}`);
    }
  }
}

for (const [name, expected] of Object.entries(VALID)) {
  test(`fixture ${name} passes with its expected properties`, async () => {
    const outcome = await inspectVideo(fixture(name), declaredFor(name));
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
    assertInfo(name, outcome.info, expected);
    assert.equal(outcome.info.sizeBytes, readFileSync(fixture(name)).length);
  });
}

const REJECTED: Record<string, [code: string, error: RegExp]> = {
  'fps-61.mp4': ['invalid_media_specs', /^Video frame rate 61\.00 fps exceeds the 60 fps limit$/],
  'duration-181.mp4': ['invalid_media_specs', /^Video duration 181\.00 s exceeds the 180 s/],
  'size-2160x3842.mp4': ['invalid_media_specs', /^Video dimensions 2160x3842 exceed the 2160x3840/],
  'size-2162x3840.mp4': ['invalid_media_specs', /^Video dimensions 2162x3840 exceed the 2160x3840/],
  'vp9.mp4': ['invalid_media_specs', /^Video codec vp09 is not supported; use H\.264 or HEVC/],
  'av1.mp4': ['invalid_media_specs', /^Video codec av01 is not supported/],
  'mpeg4-part2.mp4': ['invalid_media_specs', /^Video codec mp4v is not supported/],
  'h264-mp3.mp4': ['invalid_media_specs', /^Audio codec mp3 is not supported; audio must be AAC$/],
  'h264-opus.mp4': ['invalid_media_specs', /^Audio codec opus is not supported/],
  'encrypted.mp4': ['invalid_media_specs', /encrypted/],
  'truncated-no-moov.mp4': [
    'invalid_media_specs',
    /truncated: it ends inside the media data and has no 'moov' box \(movie header\)/,
  ],
  'truncated-in-moov.mp4': ['invalid_media_specs', /truncated inside the 'moov' box/],
  'truncated-mdat.mp4': [
    'invalid_media_specs',
    /truncated: the media data is missing its last \d+ bytes/,
  ],
  'vp9.webm': [
    'unsupported_media_type',
    /^The file content is WebM\/Matroska; videos must be MP4 or MOV$/,
  ],
  'text.mp4': ['unsupported_media_type', /^The file content is text; videos must be MP4 or MOV$/],
};

for (const [name, [code, error]] of Object.entries(REJECTED)) {
  test(`fixture ${name} is rejected with ${code}`, async () => {
    const outcome = await inspectVideo(fixture(name), declaredFor(name));
    assert.equal(outcome.ok, false);
    if (outcome.ok) return;
    assert.equal(outcome.code, code);
    assert.match(outcome.error, error);
  });
}

test('probe details: tracks, coded and SPS sizes, edit-list aware audio duration', async () => {
  const probe = await probeMp4(fixture('duration-180.mp4'));
  assert.ok(probe.ok);
  const [video, audio] = probe.info.tracks;
  assert.equal(video?.kind, 'video');
  if (video?.kind !== 'video') return;
  assert.deepEqual(
    [video.codedWidth, video.codedHeight, video.spsWidth, video.spsHeight],
    [16, 16, 16, 16],
  );
  assert.equal(video.sampleCount, 180);
  assert.equal(audio?.kind, 'audio');
  // AAC priming makes the media 128 ms longer; the edit list presents exactly 180 s.
  assert.ok((audio?.mediaDurationSeconds ?? 0) > 180.1);
  assert.equal(audio?.durationSeconds, 180);

  const hevc = await probeMp4(fixture('hevc-aac.mp4'));
  assert.ok(hevc.ok);
  const track = hevc.info.tracks[0];
  assert.ok(track?.kind === 'video' && track.spsWidth === 160 && track.spsHeight === 90);

  const rotated = await probeMp4(fixture('size-3840x2160-rotated.mp4'));
  assert.ok(rotated.ok);
  const r = rotated.info.tracks[0];
  assert.ok(r?.kind === 'video');
  assert.deepEqual([r.width, r.height, r.codedWidth, r.codedHeight], [2160, 3840, 3840, 2160]);
});

test('an SPS larger than the container claims is caught', async () => {
  // size-2162x3840 with tkhd and the avc1 entry rewritten to claim 2160x3840.
  const bytes = Buffer.from(readFileSync(fixture('size-2162x3840.mp4')));
  const avc1 = bytes.indexOf('avc1', 0, 'latin1');
  const tkhd = bytes.indexOf('tkhd', 0, 'latin1');
  assert.ok(avc1 > 0 && tkhd > 0 && bytes[tkhd + 4] === 0);
  bytes.writeUInt16BE(2160, avc1 + 4 + 24);
  bytes.writeUInt32BE(2160 * 0x10000, tkhd + 4 + 76);
  const outcome = await inspectVideo(tempFile(bytes), declaredFor('x.mp4'));
  assert.equal(outcome.ok, false);
  if (!outcome.ok) assert.match(outcome.error, /dimensions 2162x3840 exceed/);
});

// ---------------------------------------------------------------------------------
// Declared filename, content type and size (SPEC 2.1, 4.1).

test('declared filename and content type are checked before the content', async () => {
  const good = fixture('h264-aac-faststart.mp4');
  const cases: [string, string, string | null][] = [
    ['clip.mp4', 'video/mp4', null],
    ['CLIP.MOV', 'video/quicktime', null],
    ['clip.mov', 'video/mp4', null], // ISO MP4 content in a .mov: accepted
    ['clip.mp4', 'Video/MP4; codecs="avc1.64001f"', null],
    ['clip.avi', 'video/mp4', 'Video filename must end in .mp4 or .mov'],
    ['clip.mp4.txt', 'video/mp4', 'Video filename must end in .mp4 or .mov'],
    ['clip.mp4', 'video/webm', 'Video content type "video/webm" is not supported'],
    ['clip.mp4', 'application/octet-stream', 'is not supported; use video/mp4 or video/quicktime'],
  ];
  for (const [filename, contentType, error] of cases) {
    const outcome = await inspectVideo(good, { filename, contentType });
    if (error === null) {
      assert.ok(outcome.ok, `${filename} ${contentType}`);
    } else {
      assert.ok(!outcome.ok && outcome.code === 'unsupported_media_type', filename);
      assert.ok(
        !outcome.ok && outcome.error.includes(error),
        `${filename}: ${outcome.ok ? '' : outcome.error}`,
      );
    }
  }
  const mov = await inspectVideo(fixture('h264-aac.mov'), {
    filename: 'a.mp4',
    contentType: 'video/mp4',
  });
  assert.ok(mov.ok && mov.info.container === 'mov');
});

test('size: over 209,715,200 bytes is file_too_large, a size mismatch is refused', async () => {
  const path = tempFile(readFileSync(fixture('h264-aac-faststart.mp4')));
  const size = readFileSync(path).length;
  const declared = { filename: 'a.mp4', contentType: 'video/mp4' };
  assert.ok((await inspectVideo(path, { ...declared, sizeBytes: size })).ok);
  const mismatch = await inspectVideo(path, { ...declared, sizeBytes: size + 1 });
  assert.ok(!mismatch.ok && mismatch.code === 'invalid_media_specs');
  const declaredBig = await inspectVideo(path, {
    ...declared,
    sizeBytes: VIDEO_LIMITS.maxBytes + 1,
  });
  assert.ok(!declaredBig.ok && declaredBig.code === 'file_too_large');
  assert.ok(!declaredBig.ok && declaredBig.error.includes('209715200'));

  // A sparse file one byte over the limit; its content is never read.
  truncateSync(path, VIDEO_LIMITS.maxBytes + 1);
  const big = await inspectVideo(path, declared);
  assert.ok(!big.ok && big.code === 'file_too_large', big.ok ? '' : big.error);
  truncateSync(path, VIDEO_LIMITS.maxBytes);
  const atLimit = await inspectVideo(path, declared);
  // The movie is followed by zeros up to the limit: accepted as end-of-file padding.
  assert.ok(
    atLimit.ok && atLimit.info.sizeBytes === VIDEO_LIMITS.maxBytes,
    'exactly at the limit is not too large',
  );
});

test('a missing file raises MediaReadError, the only exception', async () => {
  await assert.rejects(
    inspectVideo(join(tmp, 'missing.mp4'), declaredFor('a.mp4')),
    MediaReadError,
  );
  await assert.rejects(probeMp4(tmp), MediaReadError);
});

test('rules: tolerances at the limits', () => {
  const probe = (overrides: Partial<VideoInfo>, track: Record<string, unknown> = {}) => {
    const video = {
      kind: 'video' as const,
      trackId: 1,
      fourcc: 'avc1',
      codec: 'h264',
      encrypted: false,
      timescale: 600,
      sampleCount: 10,
      mediaDurationSeconds: 1,
      durationSeconds: 1,
      width: 1080,
      height: 1920,
      codedWidth: 1080,
      codedHeight: 1920,
      spsWidth: null,
      spsHeight: null,
      rotation: 0 as const,
      frameRate: 30,
      maxFrameRate: 30,
      ...track,
    };
    const info: VideoInfo = {
      container: 'mp4',
      brand: 'isom',
      fragmented: false,
      sizeBytes: 1000,
      durationSeconds: 1,
      width: 1080,
      height: 1920,
      rotation: 0,
      videoCodec: 'h264',
      frameRate: 30,
      maxFrameRate: 30,
      audioCodec: null,
      hasAudio: false,
      encrypted: false,
      tracks: [video],
      ...overrides,
    };
    return checkVideoInfo(info);
  };
  assert.equal(probe({ durationSeconds: 180.05 }), null);
  assert.match(probe({ durationSeconds: 180.06 })?.error ?? '', /180\.06 s exceeds/);
  assert.equal(probe({}, { frameRate: 60.49 }), null);
  assert.equal(probe({}, { frameRate: 59.94, maxFrameRate: 120 }), null);
  assert.match(probe({}, { frameRate: 60.5 })?.error ?? '', /60\.50 fps exceeds the 60 fps limit/);
  for (const [w, h] of [
    [2160, 3840],
    [3840, 2160],
    [1, 3840],
    [2160, 2160],
  ]) {
    assert.equal(
      probe({}, { width: w, height: h, codedWidth: w, codedHeight: h }),
      null,
      `${w}x${h}`,
    );
  }
  for (const [w, h] of [
    [2161, 3840],
    [3841, 100],
    [2200, 2200],
  ]) {
    assert.ok(probe({}, { width: w, height: h })?.error.includes(`${w}x${h}`), `${w}x${h}`);
  }
  assert.match(probe({}, { spsWidth: 4096, spsHeight: 2160 })?.error ?? '', /4096x2160/);
  assert.match(probe({}, { width: 0, height: 0 })?.error ?? '', /does not declare its dimensions/);
});

// ---------------------------------------------------------------------------------
// Handcrafted adversarial files (reliability target E3).

const u8 = (...bytes: number[]) => Buffer.from(bytes);
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const u64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
};
const zeros = (n: number) => Buffer.alloc(n);
const str = (s: string) => Buffer.from(s, 'latin1');
function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32(body.length + 8), str(type), body]);
}
const full = (type: string, version: number, ...parts: Buffer[]) =>
  box(type, u8(version, 0, 0, 0), ...parts);
const MATRIX = Buffer.concat([0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000].map(u32));

/**
 * A real avcC (160x90 High profile SPS and PPS) from a fixture, for the handmade movies,
 * with 1-byte NAL lengths so their small samples split into whole units (see FILLER).
 */
const AVCC = (() => {
  const bytes = readFileSync(fixture('h264-noaudio.mp4'));
  const at = boxOffsets(bytes).find((b) => b.type === 'avcC')?.at ?? 0;
  const avcC = Buffer.from(bytes.subarray(at, at + bytes.readUInt32BE(at)));
  avcC[12] = 0xfc; // lengthSizeMinusOne 0
  return avcC;
})();
/** mdat filler: 4-byte access unit delimiters (length 3), as decoders split them. */
const filler = (size: number) =>
  Buffer.from(Array.from({ length: size }, (_, i) => [3, 0x09, 0xf0, 0x80][i % 4] ?? 0));
/** movie() puts the mdat right after the 24-byte ftyp: its payload starts at 32. */
const MDAT_PAYLOAD = 32;

interface MovieParts {
  mvhd?: Buffer;
  mdhd?: Buffer;
  stsd?: Buffer;
  stts?: Buffer;
  stsc?: Buffer;
  stsz?: Buffer;
  stco?: Buffer;
  extraMoov?: Buffer[];
  trak?: Buffer;
}

const parts = {
  mvhd: (timescale = 1000, duration = u32(1000)) =>
    full('mvhd', 0, zeros(8), u32(timescale), duration, u32(0x10000), zeros(12), MATRIX, zeros(28)),
  mdhd: (timescale = 10, duration = u32(10)) =>
    full('mdhd', 0, zeros(8), u32(timescale), duration, zeros(4)),
  avc1: () =>
    box(
      'avc1',
      zeros(6),
      u16(1),
      zeros(16),
      u16(64),
      u16(36),
      u32(0x480000),
      u32(0x480000),
      zeros(4),
      u16(1),
      zeros(32),
      u16(24),
      u16(0xffff),
      AVCC,
    ),
  stsd: (count = 1) => full('stsd', 0, u32(count), parts.avc1()),
  stts: (count = 1, entries = Buffer.concat([u32(10), u32(1)])) =>
    full('stts', 0, u32(count), entries),
  // Ten 4-byte samples in one chunk at the start of the mdat payload (see movie()).
  stsc: (count = 1) =>
    full('stsc', 0, u32(count), count > 0 ? Buffer.concat([u32(1), u32(10), u32(1)]) : zeros(0)),
  stsz: (count = 10) => full('stsz', 0, u32(4), u32(count)),
  stco: (count = 1, entries = u32(MDAT_PAYLOAD)) => full('stco', 0, u32(count), entries),
};

function trak(p: MovieParts): Buffer {
  const tkhd = full(
    'tkhd',
    0,
    zeros(8),
    u32(1),
    zeros(4),
    u32(1000),
    zeros(16),
    MATRIX,
    u32(64 << 16),
    u32(36 << 16),
  );
  const hdlr = full('hdlr', 0, zeros(4), str('vide'), zeros(12), u8(0));
  const stbl = box(
    'stbl',
    p.stsd ?? parts.stsd(),
    p.stts ?? parts.stts(),
    p.stsc ?? parts.stsc(),
    p.stsz ?? parts.stsz(),
    p.stco ?? parts.stco(),
  );
  return box('trak', tkhd, box('mdia', p.mdhd ?? parts.mdhd(), hdlr, box('minf', stbl)));
}

const FTYP = box('ftyp', str('isom'), u32(0x200), str('isom'), str('mp41'));
function movie(p: MovieParts = {}): Buffer {
  const moov = box('moov', p.mvhd ?? parts.mvhd(), p.trak ?? trak(p), ...(p.extraMoov ?? []));
  return Buffer.concat([FTYP, box('mdat', filler(64)), moov]);
}

/** Fastest of a few runs, so a garbage collection or busy machine is not a failure. */
async function timed(path: string): Promise<{ probe: Mp4Probe; ms: number }> {
  let best = Infinity;
  let probe: Mp4Probe | undefined;
  for (let i = 0; i < 5 && best > 10; i += 1) {
    const start = performance.now();
    probe = await probeMp4(path);
    best = Math.min(best, performance.now() - start);
  }
  return { probe: probe as Mp4Probe, ms: best };
}

async function expectInvalid(bytes: Buffer, reason: RegExp, limitMs = 10): Promise<void> {
  const path = tempFile(bytes);
  const { probe, ms } = await timed(path);
  assert.equal(probe.ok, false, 'accepted');
  if (probe.ok) return;
  assert.equal(probe.unexpected, false, `parser defect: ${probe.reason}`);
  assert.equal(probe.kind, 'invalid');
  assert.match(probe.reason, reason);
  assert.ok(ms < limitMs, `took ${ms.toFixed(1)} ms`);
  const outcome = await inspectVideo(path, declaredFor('x.mp4'));
  assert.ok(!outcome.ok && outcome.code === 'invalid_media_specs');
}

test('the handcrafted baseline movie is valid', async () => {
  const probe = await probeMp4(tempFile(movie()));
  assert.ok(probe.ok, probe.ok ? '' : probe.reason);
  assert.equal(probe.info.frameRate, 10);
  assert.equal(probe.info.durationSeconds, 1);
  assert.equal(probe.info.videoCodec, 'h264');
});

test('adversarial: size 0 is refused except for the last top-level box', async () => {
  const t = trak({});
  t.writeUInt32BE(0, 0);
  await expectInvalid(movie({ trak: t }), /box 'trak' in 'moov' has size 0/);
  // A size-0 mdat before moov swallows the rest of the file: no movie header is found.
  const mdat0 = Buffer.concat([
    FTYP,
    u32(0),
    str('mdat'),
    zeros(16),
    box('moov', parts.mvhd(), trak({})),
  ]);
  await expectInvalid(mdat0, /no 'moov' box/);
  const ftyp0 = Buffer.concat([
    u32(0),
    str('ftyp'),
    str('isom'),
    u32(0),
    box('moov', parts.mvhd(), trak({})),
  ]);
  await expectInvalid(ftyp0, /no 'moov' box/);
});

test('adversarial: size 1 with a bad 64-bit largesize', async () => {
  const large = (value: bigint) => Buffer.concat([u32(1), str('mdat'), u64(value), zeros(8)]);
  const withMoov = (mdat: Buffer) =>
    Buffer.concat([FTYP, box('moov', parts.mvhd(), trak({})), mdat]);
  await expectInvalid(withMoov(large(0n)), /'mdat' in the file has an invalid 64-bit size 0/);
  await expectInvalid(withMoov(large(15n)), /invalid 64-bit size 15/);
  await expectInvalid(
    withMoov(large((1n << 64n) - 1n)),
    /truncated: the media data is missing its last \d+ bytes/,
  );
  await expectInvalid(withMoov(large(1n << 63n)), /truncated/);
  // Inside moov: a largesize beyond the parent.
  const t = trak({});
  const inner = Buffer.concat([u32(1), str('free'), u64(1n << 62n)]);
  await expectInvalid(
    movie({ trak: t, extraMoov: [inner] }),
    /'free' in 'moov' declares \d+ bytes but only 16 remain/,
  );
  const cut = Buffer.concat([u32(1), str('free'), zeros(4)]);
  await expectInvalid(movie({ extraMoov: [cut] }), /cut inside its 64-bit size/);
});

test('adversarial: sizes below the header size', async () => {
  for (const size of [2, 7]) {
    const t = trak({});
    t.writeUInt32BE(size, 0);
    await expectInvalid(
      movie({ trak: t }),
      new RegExp(`'trak' in 'moov' has an invalid size ${size}`),
    );
    const top = Buffer.concat([FTYP, u32(size), str('free'), box('moov', parts.mvhd(), trak({}))]);
    await expectInvalid(top, new RegExp(`'free' in the file has an invalid size ${size}`));
  }
  await expectInvalid(
    movie({ extraMoov: [Buffer.concat([u32(20), str('uuid'), zeros(12)])] }),
    /'uuid' .* shorter than its header/,
  );
});

test('adversarial: a box larger than its parent or the file', async () => {
  const t = trak({});
  t.writeUInt32BE(t.length + 100, 0);
  await expectInvalid(
    movie({ trak: t }),
    /'trak' in 'moov' declares \d+ bytes but only \d+ remain/,
  );
  const m = movie();
  const moovAt = FTYP.length + 72; // after the 72-byte mdat
  m.writeUInt32BE(m.readUInt32BE(moovAt) + 1000, moovAt);
  await expectInvalid(m, /truncated inside the 'moov' box/);
  const stco = parts.stco();
  stco.writeUInt32BE(stco.length + 4, 0);
  await expectInvalid(movie({ stco }), /'stco' in 'stbl' declares 24 bytes but only 20 remain/);
});

test('adversarial: nesting deeper than the limit', async () => {
  let nested = trak({});
  for (let i = 0; i < 20; i += 1) nested = box('trak', nested);
  await expectInvalid(movie({ trak: nested }), /nested deeper than 16 levels/);
  let edts = box('edts');
  for (let i = 0; i < 40; i += 1) edts = box('edts', edts);
  await expectInvalid(movie({ extraMoov: [edts] }), /nested deeper than 16 levels/);
});

test('adversarial: entry and sample counts larger than the payload', async () => {
  await expectInvalid(
    movie({ stts: parts.stts(0xffffffff) }),
    /'stts' declares 4294967295 entries but holds room for 1/,
  );
  await expectInvalid(movie({ stts: parts.stts(2) }), /'stts' declares 2 entries/);
  const stsz = full('stsz', 0, u32(0), u32(0x40000000), zeros(8));
  await expectInvalid(
    movie({ stsz }),
    /'stsz' declares 1073741824 sample sizes but holds room for 2/,
  );
  await expectInvalid(movie({ stco: parts.stco(0xfffffff0) }), /'stco' declares \d+ chunk offsets/);
  await expectInvalid(
    movie({ stsd: full('stsd', 0, u32(0x7fffffff), parts.avc1()) }),
    /'stsd' declares 2147483647 sample entries/,
  );
  await expectInvalid(movie({ stsd: full('stsd', 0, u32(0)) }), /has no sample description/);
  await expectInvalid(
    movie({ stco: parts.stco(1, u32(0x7fffffff)) }),
    /video track 1: chunk 1 offset 2147483647 is past the end of the file/,
  );
});

test('adversarial: compact sample sizes and mixed sample entries', async () => {
  const stz2 = (bits: number, count: number, bytes: number) =>
    full('stz2', 0, zeros(3), u8(bits), u32(count), Buffer.alloc(bytes, bits === 8 ? 4 : 0));
  assert.ok((await probeMp4(tempFile(movie({ stsz: stz2(8, 10, 10) })))).ok);
  await expectInvalid(movie({ stsz: stz2(4, 0xffffffff, 4) }), /'stz2' declares/);
  await expectInvalid(movie({ stsz: stz2(12, 10, 15) }), /'stz2' has an invalid field size 12/);
  const vp09 = parts.avc1();
  vp09.write('vp09', 4, 'latin1');
  const mixed = full('stsd', 0, u32(2), parts.avc1(), vp09);
  await expectInvalid(movie({ stsd: mixed }), /track 1 mixes sample entries 'avc1' and 'vp09'/);
  const twice = await probeMp4(
    tempFile(movie({ stsd: full('stsd', 0, u32(2), parts.avc1(), parts.avc1()) })),
  );
  assert.ok(twice.ok, 'two entries of one codec are fine');
});

test('adversarial: timescale 0 and unknown (all-ones) durations', async () => {
  await expectInvalid(movie({ mvhd: parts.mvhd(0) }), /movie timescale is 0/);
  await expectInvalid(movie({ mdhd: parts.mdhd(0) }), /track 1 has a media timescale of 0/);
  await expectInvalid(
    movie({ mvhd: parts.mvhd(1000, u32(0xffffffff)) }),
    /movie duration is marked unknown/,
  );
  const mvhd1 = full('mvhd', 1, zeros(16), u32(1000), u64((1n << 64n) - 1n), zeros(80));
  await expectInvalid(movie({ mvhd: mvhd1 }), /movie duration is marked unknown/);
  await expectInvalid(
    movie({ mdhd: parts.mdhd(10, u32(0xffffffff)) }),
    /track 1 marks its duration as unknown/,
  );
  const stts = parts.stts(1, Buffer.concat([u32(10), u32(0)]));
  await expectInvalid(
    movie({ stts, mdhd: parts.mdhd(10, u32(0)) }),
    /has 10 samples but no duration/,
  );
});

test('adversarial: structure limits (boxes, moov size, fragments, duplicates)', async () => {
  const frees = Buffer.alloc(8 * (MAX_TOP_LEVEL_BOXES + 1));
  for (let at = 0; at < frees.length; at += 8) {
    frees.writeUInt32BE(8, at);
    frees.write('free', at + 4, 'latin1');
  }
  await expectInvalid(
    Buffer.concat([FTYP, frees]),
    new RegExp(`more than ${MAX_TOP_LEVEL_BOXES} top-level boxes`),
    200,
  );

  const huge = tempFile(Buffer.concat([FTYP, u32(MOOV_MAX_BYTES + 9), str('moov')]));
  truncateSync(huge, FTYP.length + MOOV_MAX_BYTES + 9);
  const { probe } = await timed(huge);
  assert.ok(
    !probe.ok && /'moov' box is \d+ bytes, more than the 64 MiB accepted/.test(probe.reason),
  );

  const moov = box('moov', parts.mvhd(), trak({}));
  await expectInvalid(Buffer.concat([FTYP, moov, moov]), /more than one 'moov' box/);
  await expectInvalid(
    Buffer.concat([FTYP, moov, box('moof', box('mfhd', zeros(8)))]),
    /movie fragments but no 'mvex'/,
  );
  await expectInvalid(
    Buffer.concat([FTYP, moov, u8(0x00, 0x00, 0x00, 0x10, 0x01, 0x02, 0x03, 0x04)]),
    /unreadable data at offset/,
  );
  await expectInvalid(Buffer.concat([movie(), u8(1, 2, 3)]), /ends with 3 stray bytes/);
  for (const padding of [3, 8, 5000]) {
    const padded = await probeMp4(tempFile(Buffer.concat([movie(), zeros(padding)])));
    assert.ok(padded.ok, `${padding} zero bytes after the last box are tolerated`);
  }
});

test('adversarial: fragment run counts larger than the payload', async () => {
  const mvex = box('mvex', full('trex', 0, u32(1), u32(1), u32(0), u32(0), u32(0)));
  // As fragmented writers do: empty sample tables and zero durations in the headers.
  const moov = box(
    'moov',
    parts.mvhd(1000, u32(0)),
    trak({
      mdhd: parts.mdhd(10, u32(0)),
      stts: parts.stts(0, zeros(0)),
      stsc: parts.stsc(0),
      stsz: parts.stsz(0),
      stco: parts.stco(0, zeros(0)),
    }),
    mvex,
  );
  const tfhd = full('tfhd', 0, u32(1));
  const trun = (count: number, flags: number, body: Buffer) =>
    box('trun', u8(0, (flags >> 16) & 255, (flags >> 8) & 255, flags & 255), u32(count), body);
  const file = (run: Buffer) =>
    Buffer.concat([FTYP, moov, box('moof', box('traf', tfhd, run)), box('mdat', filler(8))]);

  await expectInvalid(
    file(trun(0xffffffff, 0x100, zeros(8))),
    /'trun' declares 4294967295 samples but holds room for 2/,
  );
  await expectInvalid(file(trun(5, 0, zeros(0))), /video track 1 has 5 samples but no duration/);
  // Runs without durations placed on the timeline by `tfdt`: 3 fragments of 10 samples
  // at decode times 0, 10 and 20 (timescale 10), the last ending where it starts.
  const tfdt = (t: number) => full('tfdt', 0, u32(t));
  const timeline = Buffer.concat([
    FTYP,
    moov,
    ...[0, 10, 20].map((t) => box('moof', box('traf', tfhd, tfdt(t), trun(10, 0, zeros(0))))),
  ]);
  const fromTfdt = await probeMp4(tempFile(timeline));
  assert.ok(fromTfdt.ok, fromTfdt.ok ? '' : fromTfdt.reason);
  assert.equal(fromTfdt.info.durationSeconds, 2);
  assert.equal(fromTfdt.info.frameRate, 15);
  const ok = await probeMp4(
    tempFile(file(trun(20, 0x100, Buffer.concat(Array.from({ length: 20 }, () => u32(1)))))),
  );
  assert.ok(ok.ok, ok.ok ? '' : ok.reason);
  assert.equal(ok.info.fragmented, true);
  assert.equal(ok.info.frameRate, 10);
  assert.equal(ok.info.durationSeconds, 2);
  const unknownTrack = Buffer.concat([
    FTYP,
    moov,
    box('moof', box('traf', full('tfhd', 0, u32(9)), trun(1, 0x100, u32(1)))),
  ]);
  await expectInvalid(unknownTrack, /unknown track 9/);
});

test('not MP4 at all: empty, text, other formats, HEIF images', async () => {
  const cases: [Buffer, RegExp][] = [
    [Buffer.alloc(0), /empty/],
    [str('hi'), /text/],
    [Buffer.concat([u8(0x1a, 0x45, 0xdf, 0xa3), zeros(40)]), /WebM/],
    [Buffer.concat([str('RIFF'), u32(100), str('AVI '), zeros(20)]), /AVI/],
    [box('ftyp', str('heic'), u32(0), str('mif1'), str('heic')), /HEIF\/HEIC image/],
    [box('ftyp', str('3gp4'), u32(0), str('3gp4')), /brand '3gp4', not MP4 or MOV/],
  ];
  for (const [bytes, reason] of cases) {
    const probe = await probeMp4(tempFile(bytes));
    assert.ok(!probe.ok && probe.kind === 'not_mp4', reason.source);
    assert.match(probe.reason, reason);
  }
});

test('a QuickTime file without ftyp is MOV', async () => {
  const probe = await probeMp4(
    tempFile(
      Buffer.concat([
        box('wide'),
        box('mdat', filler(64)),
        box('moov', parts.mvhd(), trak({ stco: parts.stco(1, u32(16)) })),
      ]),
    ),
  );
  assert.ok(probe.ok, probe.ok ? '' : probe.reason);
  assert.equal(probe.info.container, 'mov');
  assert.equal(probe.info.brand, null);
});

// ---------------------------------------------------------------------------------
// Reading only what is needed (reliability target E5).

test('a 150 MB moov-at-end file with a 64-bit mdat is probed from a few KB of reads', async () => {
  const small = readFileSync(fixture('h264-aac-moov-end.mp4'));
  // Take ftyp, mdat and moov from the fixture; place them around a sparse 150 MB gap.
  const ftypSize = small.readUInt32BE(0);
  let pos = ftypSize;
  const boxes = new Map<string, Buffer>();
  while (pos < small.length) {
    const size = small.readUInt32BE(pos);
    boxes.set(small.toString('latin1', pos + 4, pos + 8), small.subarray(pos, pos + size));
    pos += size;
  }
  const mdat = boxes.get('mdat');
  const moov = boxes.get('moov');
  assert.ok(mdat && moov);
  const gap = 150 * 1024 * 1024;
  const mdatSize = BigInt(16 + mdat.length - 8 + gap);
  const head = Buffer.concat([
    small.subarray(0, ftypSize),
    u32(1),
    str('mdat'),
    u64(mdatSize),
    mdat.subarray(8),
  ]);
  // Chunk offsets shift by 8 (the largesize field); they stay inside the file either way.
  const path = join(tmp, 'big-moov-end.mp4');
  writeFileSync(path, head);
  truncateSync(path, head.length + gap);
  writeFileSync(path, moov, { flag: 'a' });

  const source = await FileSource.open(path);
  try {
    const start = performance.now();
    const probe = await probeMp4Source(source);
    const ms = performance.now() - start;
    assert.ok(probe.ok, probe.ok ? '' : probe.reason);
    assert.equal(probe.info.durationSeconds, 2);
    assert.ok(source.bytesRead < 128 * 1024, `read ${source.bytesRead} bytes`);
    assert.ok(ms < 50, `took ${ms.toFixed(1)} ms`);
  } finally {
    await source.close();
  }
});

// ---------------------------------------------------------------------------------
// Differential check against ffprobe, when installed (reliability target E4).

const ffprobe = spawnSync('ffprobe', ['-version'], { encoding: 'utf8' });
test(
  'agrees with ffprobe on codec, size, frame rate and duration',
  { skip: ffprobe.status !== 0 && 'ffprobe not installed' },
  async () => {
    for (const name of Object.keys(VALID)) {
      const run = spawnSync(
        'ffprobe',
        [
          '-v',
          'error',
          '-f',
          'mov',
          '-protocol_whitelist',
          'file',
          '-show_streams',
          '-show_format',
          '-of',
          'json',
          fixture(name),
        ],
        { encoding: 'utf8', timeout: 10_000 },
      );
      const ff = JSON.parse(run.stdout) as {
        streams: {
          codec_type: string;
          codec_name: string;
          width?: number;
          height?: number;
          avg_frame_rate: string;
        }[];
        format: { duration: string };
      };
      const probe = await probeMp4(fixture(name));
      assert.ok(probe.ok);
      const video = probe.info.tracks.find((t) => t.kind === 'video');
      const ffVideo = ff.streams.find((s) => s.codec_type === 'video');
      assert.ok(video?.kind === 'video' && ffVideo);
      assert.equal(video.codec, ffVideo.codec_name, `${name} codec`);
      assert.deepEqual(
        [video.codedWidth, video.codedHeight],
        [ffVideo.width, ffVideo.height],
        `${name} size`,
      );
      const [num = 0, den = 1] = ffVideo.avg_frame_rate.split('/').map(Number);
      assert.ok(
        Math.abs(video.frameRate - num / den) < 0.01,
        `${name} fps ${video.frameRate} vs ${num / den}`,
      );
      assert.ok(
        Math.abs(probe.info.durationSeconds - Number(ff.format.duration)) < 0.05,
        `${name} duration`,
      );
      const ffAudio = ff.streams.find((s) => s.codec_type === 'audio');
      assert.equal(probe.info.audioCodec, ffAudio?.codec_name ?? null, `${name} audio`);
    }
  },
);
