import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  truncateSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { probeMp4 } from '../../src/media/probe/index.ts';
import {
  THUMBNAIL_LIMITS,
  ThumbnailError,
  imageThumbnail,
  seekSeconds,
  videoThumbnail,
} from '../../src/media/thumbnails.ts';
import type { ThumbnailFailure } from '../../src/media/thumbnails.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/media');
const fixture = (name: string) => join(FIXTURES, name);
const tmp = mkdtempSync(join(tmpdir(), 'slotline-thumbs-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const FFMPEG = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string })
  .path;
const MAX = THUMBNAIL_LIMITS.maxSide;

// ---- helpers ----

async function assertJpeg(bytes: Buffer): Promise<{ width: number; height: number }> {
  assert.deepEqual([...bytes.subarray(0, 3)], [0xff, 0xd8, 0xff], 'JPEG SOI marker');
  assert.deepEqual([...bytes.subarray(-2)], [0xff, 0xd9], 'JPEG EOI marker');
  const meta = await sharp(bytes).metadata();
  assert.equal(meta.format, 'jpeg');
  assert.equal(meta.exif, undefined, 'no EXIF');
  assert.equal(meta.icc, undefined, 'no ICC profile');
  assert.equal(meta.orientation, undefined, 'no orientation tag');
  const { width, height } = meta;
  assert.ok(width !== undefined && height !== undefined);
  assert.ok(Math.max(width, height) <= MAX, `longest side ${Math.max(width, height)} > ${MAX}`);
  return { width, height };
}

/** The thumbnail of a `w` x `h` picture: scaled down to fit 480, never up, within 1 px. */
function assertFits(actual: { width: number; height: number }, w: number, h: number): void {
  const scale = Math.min(1, MAX / Math.max(w, h));
  for (const [got, source] of [
    [actual.width, w],
    [actual.height, h],
  ] as const) {
    assert.ok(
      Math.abs(got - Math.max(1, source * scale)) <= 1,
      `${actual.width}x${actual.height} is not ${w}x${h} scaled by ${scale.toFixed(4)}`,
    );
  }
}

type Corner = 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';

/** Which corner of the picture is red (the marker drawn top-left before rotation). */
async function redCorner(jpeg: Buffer): Promise<Corner[]> {
  const { data, info } = await sharp(jpeg)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const i = (y * info.width + x) * 3;
    return data[i]! > 150 && data[i + 1]! < 100 && data[i + 2]! < 100;
  };
  const l = 2;
  const t = 2;
  const r = info.width - 3;
  const b = info.height - 3;
  const corners: [Corner, boolean][] = [
    ['top-left', at(l, t)],
    ['top-right', at(r, t)],
    ['bottom-left', at(l, b)],
    ['bottom-right', at(r, b)],
  ];
  return corners.filter(([, red]) => red).map(([name]) => name);
}

/** Where the top-left corner lands after turning the picture clockwise. */
const CLOCKWISE: Record<number, Corner> = {
  0: 'top-left',
  90: 'top-right',
  180: 'bottom-right',
  270: 'bottom-left',
};

async function rejectsWith(
  promise: Promise<unknown>,
  reason: ThumbnailFailure,
  message?: RegExp,
): Promise<ThumbnailError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ThumbnailError, `expected ThumbnailError, got ${String(error)}`);
    assert.equal(error.reason, reason, error.message);
    if (message) assert.match(error.message, message);
    return error;
  }
  assert.fail(`expected a ThumbnailError (${reason})`);
}

/**
 * Processes whose parent is this test process (running or not yet reaped), apart from
 * the esbuild service the TypeScript loader (tsx) starts and stops on its own.
 */
function childProcesses(): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // pid (comm) state ppid ...; comm may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[1]) !== process.pid || stat.includes('(esbuild)')) continue;
    found.push(stat.slice(0, 60));
  }
  return found;
}

function assertNoChildProcesses(): void {
  assert.deepEqual(childProcesses(), [], 'no ffmpeg (or fake) process left behind');
}

let tmpCount = 0;
function tempPath(name: string): string {
  tmpCount += 1;
  return join(tmp, `${tmpCount}-${name}`);
}

function fakeFfmpeg(body: string): string {
  const path = tempPath('ffmpeg.sh');
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

function ffmpeg(args: string[]): void {
  execFileSync(FFMPEG, ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

// ---- images ----

const IMAGES: Record<string, [number, number]> = {
  'image.png': [64, 48],
  'image.jpg': [64, 48],
  'image-lossy.webp': [64, 48],
  'image-lossless.webp': [64, 48],
  'image-alpha.webp': [64, 48],
  'image-8192x8.png': [8192, 8],
};

for (const [name, [w, h]] of Object.entries(IMAGES)) {
  test(`image ${name} -> JPEG fitting ${MAX} px`, async () => {
    assertFits(await assertJpeg(await imageThumbnail(fixture(name))), w, h);
  });
}

test('a large image is scaled down to 480 px on its longest side', async () => {
  const path = tempPath('large.png');
  await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#336699' } })
    .png()
    .toFile(path);
  const size = await assertJpeg(await imageThumbnail(path));
  assert.deepEqual(size, { width: 480, height: 240 });
});

test('EXIF orientation is applied and the metadata is stripped', async () => {
  const path = tempPath('oriented.jpg');
  // 200x100 with a red top-left block; orientation 6 = displayed turned 90° clockwise.
  await sharp({ create: { width: 200, height: 100, channels: 3, background: '#000000' } })
    .composite([
      {
        input: { create: { width: 50, height: 25, channels: 3, background: '#ff0000' } },
        left: 0,
        top: 0,
      },
    ])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toFile(path);
  assert.equal((await sharp(path).metadata()).orientation, 6);
  const thumb = await imageThumbnail(path);
  assert.deepEqual(await assertJpeg(thumb), { width: 100, height: 200 });
  assert.deepEqual(await redCorner(thumb), ['top-right']);
});

test('transparent pixels become white, not black', async () => {
  const path = tempPath('transparent.png');
  await sharp({ create: { width: 40, height: 40, channels: 4, background: '#00000000' } })
    .png()
    .toFile(path);
  const { data } = await sharp(await imageThumbnail(path))
    .raw()
    .toBuffer({ resolveWithObject: true });
  assert.ok(
    data[0]! > 245 && data[1]! > 245 && data[2]! > 245,
    `pixel ${[...data.subarray(0, 3)]}`,
  );
});

test('HEIC: a JPEG when sharp can decode HEVC, else ThumbnailError "unsupported"', async () => {
  // The prebuilt libvips reads HEIF headers but ships no HEVC decoder; a build with
  // libde265 would decode it. Either way the outcome is one of these two, never a crash.
  try {
    assertFits(await assertJpeg(await imageThumbnail(fixture('image.heic'))), 64, 48);
  } catch (error) {
    assert.ok(error instanceof ThumbnailError, String(error));
    assert.equal(error.reason, 'unsupported');
    assert.match(error.message, /HEIC/);
  }
});

test('corrupt and non-image files reject with ThumbnailError "invalid"', async () => {
  await rejectsWith(imageThumbnail(fixture('image-truncated.png')), 'invalid');
  await rejectsWith(imageThumbnail(fixture('text.png')), 'invalid');
  await rejectsWith(imageThumbnail(fixture('h264-noaudio.mp4')), 'invalid');
  const cut = tempPath('cut.jpg');
  const large = await sharp({
    create: {
      width: 300,
      height: 300,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg()
    .toBuffer();
  writeFileSync(cut, large.subarray(0, large.length >> 1));
  await rejectsWith(imageThumbnail(cut), 'invalid');
});

test('an image over the 8192 x 8192 pixel budget is refused before decoding', async () => {
  // A 16x16 PNG whose header is rewritten to claim 9000x9000 (CRC fixed up).
  const png = Buffer.from(
    await sharp({ create: { width: 16, height: 16, channels: 3, background: '#fff' } })
      .png()
      .toBuffer(),
  );
  png.writeUInt32BE(9000, 16);
  png.writeUInt32BE(9000, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  const path = tempPath('huge.png');
  writeFileSync(path, png);
  await rejectsWith(imageThumbnail(path), 'invalid', /pixel limit/);
});

test('a missing input rejects with ThumbnailError "unavailable"', async () => {
  await rejectsWith(imageThumbnail(join(tmp, 'missing.png')), 'unavailable');
  await rejectsWith(videoThumbnail(join(tmp, 'missing.mp4')), 'unavailable');
  await rejectsWith(videoThumbnail(tmp), 'unavailable', /regular file/);
});

// ---- videos ----

const VIDEOS = [
  'h264-aac-faststart.mp4',
  'h264-aac-moov-end.mp4',
  'h264-noaudio.mp4',
  'hevc-aac.mp4',
  'hevc-hev1-noaudio.mp4',
  'h264-aac.mov',
  'fragmented.mp4',
  'fps-60.mp4',
  'duration-180.mp4',
  'size-3840x2160.mp4',
  'size-2160x3840.mp4',
  'size-3840x2160-rotated.mp4',
];

for (const name of VIDEOS) {
  test(`video ${name} -> JPEG with the displayed orientation`, async () => {
    const probe = await probeMp4(fixture(name));
    assert.ok(probe.ok);
    // The probe's width/height are the displayed size (rotation applied).
    const size = await assertJpeg(await videoThumbnail(fixture(name)));
    assertFits(size, probe.info.width, probe.info.height);
  });
}

test('size-3840x2160-rotated.mp4 is displayed portrait', async () => {
  const size = await assertJpeg(await videoThumbnail(fixture('size-3840x2160-rotated.mp4')));
  assert.deepEqual(size, { width: 270, height: 480 });
});

test('rotation metadata turns the frame the way the probe reads it', async () => {
  const plain = tempPath('marker.mp4');
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'color=c=black:s=64x36:r=30:d=2,drawbox=x=0:y=0:w=16:h=12:color=red:t=fill',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    plain,
  ]);
  const seen = new Set<number>();
  for (const tag of ['0', '90', '180', '270']) {
    const rotated = tempPath(`marker-${tag}.mp4`);
    ffmpeg(['-i', plain, '-c', 'copy', '-metadata:s:v:0', `rotate=${tag}`, rotated]);
    const probe = await probeMp4(rotated);
    assert.ok(probe.ok);
    const rotation = probe.info.rotation;
    seen.add(rotation);
    const thumb = await videoThumbnail(rotated);
    const size = await assertJpeg(thumb);
    assert.deepEqual(
      size,
      rotation % 180 === 0 ? { width: 64, height: 36 } : { width: 36, height: 64 },
    );
    assert.deepEqual(await redCorner(thumb), [CLOCKWISE[rotation]], `rotation ${rotation}`);
  }
  assert.equal(seen.size, 4, `rotations seen: ${[...seen]}`);
});

function anamorphicClip(sar: string): string {
  const path = tempPath(`sar-${sar.replace('/', '-')}.mp4`);
  const filter = `color=c=gray:s=64x36:r=30:d=1,setsar=${sar}`;
  ffmpeg(['-f', 'lavfi', '-i', filter, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', path]);
  return path;
}

test('non-square pixels are squared (64x36 at 2:1 shows 128x36, at 1:2 32x36)', async () => {
  const wide = await assertJpeg(await videoThumbnail(anamorphicClip('2')));
  assert.deepEqual(wide, { width: 128, height: 36 });
  const narrow = await assertJpeg(await videoThumbnail(anamorphicClip('1/2')));
  assert.deepEqual(narrow, { width: 32, height: 36 });
});

test('an absurd sample aspect ratio still gives a bounded thumbnail', async () => {
  const size = await assertJpeg(await videoThumbnail(anamorphicClip('1000')));
  assert.equal(size.width, MAX);
  assert.ok(size.height >= 1 && size.height < 10, `${size.width}x${size.height}`);
});

test('seek point: 1 s, 10% of long clips, the middle of short ones, first frame under 1 s', () => {
  assert.equal(seekSeconds(null), 1);
  assert.equal(seekSeconds(0.04), 0);
  assert.equal(seekSeconds(1), 0.5);
  assert.equal(seekSeconds(2), 1);
  assert.equal(seekSeconds(8), 1);
  assert.equal(seekSeconds(180), 18);
});

test('a seek point past the end falls back to the first frame', async () => {
  const size = await assertJpeg(
    await videoThumbnail(fixture('h264-noaudio.mp4'), { atSeconds: 60 }),
  );
  assert.deepEqual(size, { width: 160, height: 90 });
});

test('a file truncated inside its media data still yields the frames before the cut', async () => {
  // Not a ready upload (the probe refuses it), but ffmpeg decodes what is there.
  assertFits(await assertJpeg(await videoThumbnail(fixture('truncated-mdat.mp4'))), 160, 90);
});

for (const name of [
  'truncated-no-moov.mp4',
  'truncated-in-moov.mp4',
  'text.mp4',
  'vp9.webm',
  'encrypted.mp4',
  'image.png',
]) {
  test(`video ${name} rejects quickly with ThumbnailError "invalid"`, async () => {
    const started = performance.now();
    await rejectsWith(videoThumbnail(fixture(name)), 'invalid', /ffmpeg could not decode/);
    assert.ok(performance.now() - started < 3000);
    assertNoChildProcesses();
  });
}

test('an empty file rejects with ThumbnailError', async () => {
  const path = tempPath('empty.mp4');
  writeFileSync(path, '');
  await rejectsWith(videoThumbnail(path), 'invalid');
});

test('a path that looks like an option or a URL is read as a local file', async () => {
  const odd = join(tmp, '-i http:evil.mp4');
  copyFileSync(fixture('h264-noaudio.mp4'), odd);
  assertFits(await assertJpeg(await videoThumbnail(odd)), 160, 90);
});

test('a real ffmpeg still decoding at its timeout is killed and rejects with "timeout"', async () => {
  // One lossless 1080p noise frame: ffmpeg needs ~250 ms for it, far over the 40 ms limit.
  const heavy = tempPath('noise.mp4');
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'color=c=gray:s=1920x1080:r=1:d=1,noise=alls=100:allf=t',
    '-frames:v',
    '1',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-qp',
    '0',
    '-pix_fmt',
    'yuv420p',
    heavy,
  ]);
  // The real binary, exec'd under a wrapper that records its pid.
  const pidFile = tempPath('pid');
  const binary = fakeFfmpeg(`echo $$ > '${pidFile}'\nexec '${FFMPEG}' "$@"`);
  const started = performance.now();
  await rejectsWith(
    videoThumbnail(heavy, { atSeconds: 0, timeoutMs: 40, ffmpegPath: binary }),
    'timeout',
  );
  assert.ok(performance.now() - started < 1000);
  const pid = Number(readFileSync(pidFile, 'utf8'));
  assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, `ffmpeg ${pid} still exists`);
  assertNoChildProcesses();
});

test('a hanging ffmpeg is killed at the timeout and has exited when the call rejects', async () => {
  const pidFile = tempPath('pid');
  const binary = fakeFfmpeg(`echo $$ > '${pidFile}'\nexec sleep 30`);
  const started = performance.now();
  // A second of slack, so that a busy machine still starts the script before the timeout.
  await rejectsWith(
    videoThumbnail(fixture('h264-noaudio.mp4'), { timeoutMs: 1000, ffmpegPath: binary }),
    'timeout',
  );
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= 950 && elapsed < 5000, `took ${elapsed.toFixed(0)} ms`);
  const pid = Number(readFileSync(pidFile, 'utf8'));
  assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, `process ${pid} still exists`);
  assertNoChildProcesses();
});

test('ffmpeg output beyond 64 MiB is cut off with "too_large"', async () => {
  const binary = fakeFfmpeg('exec cat /dev/zero');
  await rejectsWith(
    videoThumbnail(fixture('h264-noaudio.mp4'), { ffmpegPath: binary }),
    'too_large',
  );
  assertNoChildProcesses();
});

test('ffmpeg failures reject instead of hanging', async () => {
  const video = fixture('h264-noaudio.mp4');
  await rejectsWith(
    videoThumbnail(video, { ffmpegPath: fakeFfmpeg('echo "bad things" >&2\nexit 3') }),
    'invalid',
    /exit 3.*bad things/,
  );
  await rejectsWith(
    videoThumbnail(video, { ffmpegPath: fakeFfmpeg('kill -9 $$') }),
    'unavailable',
    /SIGKILL/,
  );
  await rejectsWith(
    videoThumbnail(video, { ffmpegPath: join(tmp, 'no-such-ffmpeg') }),
    'unavailable',
    /ENOENT/,
  );
  // Output that is not an image.
  await rejectsWith(
    videoThumbnail(video, { ffmpegPath: fakeFfmpeg('echo not-a-png') }),
    'invalid',
    /frame/,
  );
  assertNoChildProcesses();
});

test('no frame at the seek point: one retry at the first frame, then "no_frame"', async () => {
  const calls = tempPath('calls');
  const binary = fakeFfmpeg(`echo "$@" >> '${calls}'\nexit 0`);
  await rejectsWith(
    videoThumbnail(fixture('h264-noaudio.mp4'), { ffmpegPath: binary }),
    'no_frame',
  );
  const lines = readFileSync(calls, 'utf8').trim().split('\n');
  assert.equal(lines.length, 2);
  assert.match(lines[0]!, / -ss 1\.000 /);
  assert.match(lines[1]!, / -ss 0\.000 /);
});

test('ffmpeg is confined: mov demuxer, file protocol only, one frame to stdout', async () => {
  const calls = tempPath('args');
  const binary = fakeFfmpeg(`for a in "$@"; do echo "$a"; done > '${calls}'\nexit 0`);
  await rejectsWith(
    videoThumbnail(fixture('h264-noaudio.mp4'), { ffmpegPath: binary, atSeconds: 0 }),
    'no_frame',
  );
  const args = readFileSync(calls, 'utf8').trim().split('\n');
  const after = (flag: string) => args[args.indexOf(flag) + 1];
  assert.equal(after('-protocol_whitelist'), 'file');
  assert.equal(after('-f'), 'mov');
  assert.equal(after('-i'), `file:${fixture('h264-noaudio.mp4')}`);
  assert.equal(after('-frames:v'), '1');
  assert.equal(args.at(-1), 'pipe:1');
  assert.ok(args.includes('-nostdin'));
  assert.ok(args.indexOf('-ss') < args.indexOf('-i'), 'input seeking');
});

test('option values are checked', async () => {
  const video = fixture('h264-noaudio.mp4');
  await assert.rejects(videoThumbnail(video, { timeoutMs: 0 }), RangeError);
  await assert.rejects(videoThumbnail(video, { atSeconds: -1 }), RangeError);
  await assert.rejects(videoThumbnail(video, { atSeconds: Number.NaN }), RangeError);
});

test('truncating a valid video at every tenth of its length never hangs', async () => {
  const source = readFileSync(fixture('hevc-aac.mp4'));
  const path = tempPath('cut.mp4');
  for (let i = 1; i < 10; i += 1) {
    writeFileSync(path, source);
    truncateSync(path, Math.floor((source.length * i) / 10));
    try {
      await assertJpeg(await videoThumbnail(path, { timeoutMs: 5000 }));
    } catch (error) {
      assert.ok(error instanceof ThumbnailError, String(error));
      assert.notEqual(error.reason, 'timeout');
    }
  }
  assertNoChildProcesses();
});
