import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IMAGE_LIMITS, inspectImage } from '../../src/media/probe/image.ts';
import { MediaReadError } from '../../src/media/probe/types.ts';
import type { ImageInfo } from '../../src/media/probe/types.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/media');
const fixture = (name: string) => join(FIXTURES, name);
const tmp = mkdtempSync(join(tmpdir(), 'slotline-image-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
let tmpCount = 0;
function tempFile(bytes: Uint8Array): string {
  tmpCount += 1;
  const path = join(tmp, `image-${tmpCount}`);
  writeFileSync(path, bytes);
  return path;
}

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  heic: 'image/heic',
};
const declaredFor = (name: string, contentType?: string) => ({
  filename: name,
  contentType: contentType ?? TYPES[name.split('.').pop() ?? ''] ?? 'image/png',
});

const VALID: Record<string, Omit<ImageInfo, 'sizeBytes'>> = {
  'image.png': { format: 'png', width: 64, height: 48 },
  'image.jpg': { format: 'jpeg', width: 64, height: 48 },
  'image-lossy.webp': { format: 'webp', width: 64, height: 48 },
  'image-lossless.webp': { format: 'webp', width: 64, height: 48 },
  'image-alpha.webp': { format: 'webp', width: 64, height: 48 },
  'image.heic': { format: 'heic', width: 64, height: 48 },
  'image-8192x8.png': { format: 'png', width: 8192, height: 8 },
};

for (const [name, expected] of Object.entries(VALID)) {
  test(`fixture ${name} passes as ${expected.format} ${expected.width}x${expected.height}`, async () => {
    const outcome = await inspectImage(fixture(name), declaredFor(name));
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
    assert.deepEqual(outcome.info, { ...expected, sizeBytes: readFileSync(fixture(name)).length });
  });
}

const REJECTED: Record<string, [code: string, error: RegExp]> = {
  'image-8193x8.png': [
    'invalid_media_specs',
    /^Image dimensions 8193x8 exceed the 8192 px per side limit$/,
  ],
  'image-16x8200.jpg': ['invalid_media_specs', /^Image dimensions 16x8200 exceed/],
  'image-truncated.png': ['invalid_media_specs', /PNG file is truncated before its IHDR header/],
  'text.png': [
    'unsupported_media_type',
    /^Image content is text; images must be PNG, JPEG, WebP or HEIC$/,
  ],
};

for (const [name, [code, error]] of Object.entries(REJECTED)) {
  test(`fixture ${name} is rejected with ${code}`, async () => {
    const outcome = await inspectImage(fixture(name), declaredFor(name));
    assert.ok(!outcome.ok);
    assert.equal(outcome.code, code);
    assert.match(outcome.error, error);
  });
}

test('declared content type must be accepted and match the content', async () => {
  const png = fixture('image.png');
  const mismatch = await inspectImage(png, declaredFor('a.png', 'image/jpeg'));
  assert.ok(!mismatch.ok && mismatch.code === 'unsupported_media_type');
  assert.ok(
    !mismatch.ok &&
      mismatch.error === 'Image content is PNG but its declared content type is image/jpeg',
  );
  const gif = await inspectImage(png, declaredFor('a.gif', 'image/gif'));
  assert.ok(!gif.ok && gif.code === 'unsupported_media_type' && gif.error.includes('image/gif'));
  assert.ok((await inspectImage(png, declaredFor('a.png', 'IMAGE/PNG; q=1'))).ok);
  // HEVC-coded HEIF may be declared either way.
  assert.ok((await inspectImage(fixture('image.heic'), declaredFor('a.heic', 'image/heif'))).ok);
  const video = await inspectImage(fixture('h264-noaudio.mp4'), declaredFor('a.png'));
  assert.ok(!video.ok && video.code === 'unsupported_media_type');
  const webm = await inspectImage(fixture('vp9.webm'), declaredFor('a.png'));
  assert.ok(!webm.ok && webm.error.startsWith('Image content is WebM/Matroska'));
});

test('size: over 52,428,800 bytes is file_too_large, a size mismatch is refused', async () => {
  const path = tempFile(readFileSync(fixture('image.png')));
  const size = readFileSync(path).length;
  assert.ok((await inspectImage(path, { ...declaredFor('a.png'), sizeBytes: size })).ok);
  const mismatch = await inspectImage(path, { ...declaredFor('a.png'), sizeBytes: size - 1 });
  assert.ok(!mismatch.ok && mismatch.code === 'invalid_media_specs');
  truncateSync(path, IMAGE_LIMITS.maxBytes + 1);
  const big = await inspectImage(path, declaredFor('a.png'));
  assert.ok(!big.ok && big.code === 'file_too_large' && big.error.includes('52428800'));
  truncateSync(path, IMAGE_LIMITS.maxBytes);
  assert.ok((await inspectImage(path, declaredFor('a.png'))).ok, 'exactly at the limit passes');
});

test('a missing file raises MediaReadError', async () => {
  await assert.rejects(
    inspectImage(join(tmp, 'missing.png'), declaredFor('a.png')),
    MediaReadError,
  );
});

// ---------------------------------------------------------------------------------
// Handcrafted headers.

const u16 = (n: number) => Buffer.from([n >> 8, n & 255]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const str = (s: string) => Buffer.from(s, 'latin1');

async function outcomeOf(bytes: Buffer, contentType: string) {
  const start = performance.now();
  const outcome = await inspectImage(tempFile(bytes), declaredFor('x', contentType));
  return { outcome, ms: performance.now() - start };
}

const segment = (marker: number, body: Buffer) =>
  Buffer.concat([Buffer.from([0xff, marker]), u16(body.length + 2), body]);
const SOI = Buffer.from([0xff, 0xd8]);
const sof = (marker: number, width: number, height: number) =>
  segment(
    marker,
    Buffer.concat([Buffer.from([8]), u16(height), u16(width), Buffer.from([1, 1, 0x11, 0])]),
  );

test('JPEG: SOF after large APP segments, fill bytes, progressive frames', async () => {
  const app = segment(0xe1, Buffer.alloc(65_000));
  const late = Buffer.concat([SOI, app, app, app, sof(0xc0, 4000, 3000), Buffer.alloc(100)]);
  const { outcome } = await outcomeOf(late, 'image/jpeg');
  assert.ok(outcome.ok && outcome.info.width === 4000 && outcome.info.height === 3000);
  const fill = Buffer.concat([SOI, Buffer.from([0xff, 0xff, 0xff]), sof(0xc2, 10, 20).subarray(1)]);
  const progressive = await outcomeOf(fill, 'image/jpeg');
  assert.ok(progressive.outcome.ok && progressive.outcome.info.height === 20);
});

test('JPEG: broken headers are invalid_media_specs, quickly', async () => {
  const cases: [Buffer, RegExp][] = [
    [
      Buffer.concat([SOI, segment(0xda, Buffer.alloc(10))]),
      /no frame header \(SOF\) before its image data/,
    ],
    [Buffer.concat([SOI, sof(0xc0, 100, 0)]), /height to a later DNL marker/],
    [Buffer.concat([SOI, Buffer.from([0xff, 0xe0, 0x00, 0x01])]), /segment of invalid length 1/],
    [
      Buffer.concat([SOI, segment(0xe0, Buffer.alloc(4)), Buffer.from([0x12, 0x34])]),
      /no marker at offset 10/,
    ],
    [
      Buffer.concat([SOI, segment(0xe0, Buffer.alloc(100)).subarray(0, 50)]),
      /no frame header \(SOF\)/,
    ],
    [
      Buffer.concat([SOI, ...Array.from({ length: 5000 }, () => segment(0xfe, Buffer.alloc(0)))]),
      /no frame header \(SOF\)/,
    ],
    [Buffer.concat([SOI, Buffer.alloc(40, 0xff)]), /run of fill bytes/],
    [Buffer.concat([SOI, sof(0xc0, 0, 10)]), /declares an empty image/],
  ];
  for (const [bytes, reason] of cases) {
    const { outcome, ms } = await outcomeOf(bytes, 'image/jpeg');
    assert.ok(!outcome.ok && outcome.code === 'invalid_media_specs', reason.source);
    assert.match(outcome.error, reason);
    assert.ok(ms < 100, `${reason.source} took ${ms.toFixed(1)} ms`);
  }
});

const riff = (chunk: string, body: Buffer, declared?: number) => {
  const payload = Buffer.concat([
    str('WEBP'),
    str(chunk),
    Buffer.from([body.length & 255, body.length >> 8, 0, 0]),
    body,
  ]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(declared ?? payload.length);
  return Buffer.concat([str('RIFF'), size, payload]);
};

test('WebP: VP8X canvas limits and broken chunks', async () => {
  const vp8x = (w: number, h: number) => {
    const body = Buffer.alloc(10);
    body.writeUIntLE(w - 1, 4, 3);
    body.writeUIntLE(h - 1, 7, 3);
    return riff('VP8X', body);
  };
  const ok = await outcomeOf(vp8x(8192, 100), 'image/webp');
  assert.ok(ok.outcome.ok && ok.outcome.info.width === 8192);
  const big = await outcomeOf(vp8x(8193, 100), 'image/webp');
  assert.ok(!big.outcome.ok && big.outcome.error.includes('8193x100'));
  const cases: [Buffer, RegExp][] = [
    [riff('VP8X', Buffer.alloc(10), 5000), /WebP file is truncated/],
    [riff('ABCD', Buffer.alloc(10)), /unknown chunk 'ABCD'/],
    [riff('VP8 ', Buffer.alloc(10)), /does not start with a key frame/],
    [riff('VP8L', Buffer.alloc(10)), /VP8L chunk has a bad signature/],
    [riff('VP8X', Buffer.alloc(2)), /truncated before its image header/],
  ];
  for (const [bytes, reason] of cases) {
    const { outcome } = await outcomeOf(bytes, 'image/webp');
    assert.ok(!outcome.ok && outcome.code === 'invalid_media_specs', reason.source);
    assert.match(outcome.error, reason);
  }
});

test('PNG: IHDR must come first and declare a non-empty size', async () => {
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const ihdr = (w: number, h: number, type = 'IHDR') =>
    Buffer.concat([sig, u32(13), str(type), u32(w), u32(h), Buffer.alloc(9)]);
  const cases: [Buffer, RegExp][] = [
    [ihdr(0, 10), /declares an empty image/],
    [ihdr(10, 10, 'IDAT'), /does not start with an IHDR header/],
    [ihdr(0x80000000, 10), /impossible size/],
  ];
  for (const [bytes, reason] of cases) {
    const { outcome } = await outcomeOf(bytes, 'image/png');
    assert.ok(!outcome.ok && outcome.code === 'invalid_media_specs', reason.source);
    assert.match(outcome.error, reason);
  }
});

// HEIF: ftyp + meta(hdlr, pitm, iprp(ipco(ispe...), ipma)).
function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32(body.length + 8), str(type), body]);
}
const full = (type: string, ...parts: Buffer[]) => box(type, Buffer.alloc(4), ...parts);
const ispe = (w: number, h: number) => full('ispe', u32(w), u32(h));
function heif(opts: {
  brands?: string[];
  primary?: number;
  props?: Buffer[];
  assoc?: [number, number[]][];
  ipma?: Buffer;
}) {
  const [major = 'heic', ...compatible] = opts.brands ?? ['heic', 'mif1', 'heic'];
  const ftyp = box('ftyp', str(major), u32(0), ...compatible.map(str));
  const assoc = opts.assoc ?? [[1, [1]]];
  const ipma =
    opts.ipma ??
    full(
      'ipma',
      u32(assoc.length),
      ...assoc.map(([item, props]) =>
        Buffer.concat([u16(item), Buffer.from([props.length, ...props])]),
      ),
    );
  const meta = full(
    'meta',
    full('hdlr', u32(0), str('pict'), Buffer.alloc(13)),
    full('pitm', u16(opts.primary ?? 1)),
    box('iprp', box('ipco', ...(opts.props ?? [ispe(64, 48)])), ipma),
  );
  return Buffer.concat([ftyp, meta, box('mdat', Buffer.alloc(8))]);
}

test('HEIF: the primary item size, brands and broken boxes', async () => {
  // A grid primary (item 1, 9000x6000) with 512x512 tiles: the primary decides.
  const grid = heif({
    props: [ispe(512, 512), ispe(9000, 6000)],
    assoc: [
      [2, [1]],
      [1, [2]],
    ],
  });
  const big = await outcomeOf(grid, 'image/heic');
  assert.ok(!big.outcome.ok && big.outcome.error.includes('9000x6000'));
  const small = heif({
    props: [ispe(8000, 8000), ispe(512, 512)],
    assoc: [
      [1, [0x82]],
      [2, [1]],
    ],
  });
  const okPrimary = await outcomeOf(small, 'image/heic');
  assert.ok(
    okPrimary.outcome.ok && okPrimary.outcome.info.width === 512,
    'essential bit is masked',
  );
  const noAssoc = heif({ props: [ispe(100, 50), ispe(300, 200)], ipma: Buffer.alloc(0) });
  const largest = await outcomeOf(noAssoc, 'image/heic');
  assert.ok(largest.outcome.ok && largest.outcome.info.width === 300, 'largest ispe without ipma');

  const mif1 = await outcomeOf(heif({ brands: ['mif1', 'mif1'] }), 'image/heic');
  assert.ok(mif1.outcome.ok && mif1.outcome.info.format === 'heif');
  const avif = await outcomeOf(heif({ brands: ['avif', 'mif1'] }), 'image/heif');
  assert.ok(!avif.outcome.ok && avif.outcome.code === 'unsupported_media_type');
  assert.match(avif.outcome.ok ? '' : avif.outcome.error, /AVIF image/);
  const avifCompat = await outcomeOf(heif({ brands: ['mif1', 'avif'] }), 'image/heif');
  assert.ok(!avifCompat.outcome.ok && avifCompat.outcome.code === 'unsupported_media_type');

  const cases: [Buffer, RegExp][] = [
    [box('ftyp', str('heic'), u32(0)), /no 'meta' box/],
    [heif({ props: [] }), /no 'ispe'/],
    [heif({ ipma: full('ipma', u32(0x7fffffff)) }), /'ipma' declares 2147483647 item associations/],
    [
      heif({ ipma: full('ipma', u32(1), u16(1), Buffer.from([200])) }),
      /declares 200 property associations/,
    ],
    [
      Buffer.concat([box('ftyp', str('heic'), u32(0)), u32(1000), str('meta')]),
      /'meta' in the file declares 1000 bytes/,
    ],
    [Buffer.concat([box('ftyp', str('heic'), u32(0)), u32(3), str('meta')]), /invalid size 3/],
  ];
  for (const [bytes, reason] of cases) {
    const { outcome, ms } = await outcomeOf(bytes, 'image/heic');
    assert.ok(!outcome.ok && outcome.code === 'invalid_media_specs', reason.source);
    assert.match(outcome.error, reason);
    assert.ok(ms < 100, `${reason.source} took ${ms.toFixed(1)} ms`);
  }
});
