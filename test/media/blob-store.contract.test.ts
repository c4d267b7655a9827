// One contract, both blob stores: local disk and an S3-compatible bucket (s3rver in
// process, or the server SLOTLINE_TEST_S3_URL names).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { BlobSizeError, LocalBlobStore, type BlobStore } from '../../src/media/blob-store.ts';
import { S3BlobStore } from '../../src/media/s3-blob-store.ts';
import { presignGetUrl } from '../../src/media/s3-presign.ts';
import { startS3, type TestS3 } from '../helpers/s3.ts';

const T = { timeout: 60_000 };
const MiB = 1024 * 1024;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** `total` random bytes in 1 MiB chunks, and their SHA-256. */
function stream(total: number): { body: Readable; sha256: string } {
  const chunks: Buffer[] = [];
  for (let n = 0; n < total; n += MiB) chunks.push(randomBytes(Math.min(MiB, total - n)));
  return { body: Readable.from(chunks), sha256: sha(Buffer.concat(chunks)) };
}

let s3: TestS3;
let dir: string;
before(async () => {
  s3 = await startS3();
  dir = await mkdtemp(join(tmpdir(), 'slotline-blobs-'));
});
after(async () => {
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

const run = `t${Date.now().toString(36)}`;
const stores: [string, () => BlobStore][] = [
  ['local', () => new LocalBlobStore(dir)],
  // The smallest part S3 allows, so 11 MiB takes three parts.
  ['s3', () => new S3BlobStore(s3.config, { partSize: 5 * MiB })],
];

for (const [name, make] of stores) {
  describe(`blob store contract [${name}]`, () => {
    let store: BlobStore;
    before(() => {
      store = make();
    });
    after(() => {
      if (store instanceof S3BlobStore) store.close();
    });
    const key = (k: string) => `${run}/${name}/${k}`;

    test('put, get, stat, copy, delete', T, async () => {
      const bytes = randomBytes(70_000);
      const stored = await store.put(key('a.bin'), bytes);
      assert.deepEqual(stored, { size: bytes.length, sha256: sha(bytes) });
      assert.deepEqual(await store.stat(key('a.bin')), { size: bytes.length });
      const body = await store.get(key('a.bin'));
      assert.ok(body);
      const chunks: Buffer[] = [];
      for await (const c of body) chunks.push(c as Buffer);
      assert.ok(Buffer.concat(chunks).equals(bytes));
      await store.copy(key('a.bin'), key('copy/b.bin'));
      assert.ok((await store.read(key('copy/b.bin'), bytes.length))?.equals(bytes));
      await store.delete(key('a.bin'));
      assert.equal(await store.stat(key('a.bin')), null);
      assert.equal(await store.get(key('a.bin')), null);
      assert.equal(await store.read(key('a.bin'), 10), null);
      assert.equal(await store.openSource(key('a.bin')), null);
      // The copy is its own object.
      assert.deepEqual(await store.stat(key('copy/b.bin')), { size: bytes.length });
    });

    test('get of a byte range: exactly those bytes, ends inclusive', T, async () => {
      const bytes = randomBytes(10_000);
      await store.put(key('range.bin'), bytes);
      // Not 0-0: s3rver reads an end of 0 as no end.
      for (const [start, end] of [
        [0, 9],
        [1, 4_999],
        [9_990, 9_999],
      ] as const) {
        const body = await store.get(key('range.bin'), { start, end });
        assert.ok(body);
        const chunks: Buffer[] = [];
        for await (const c of body) chunks.push(c as Buffer);
        assert.ok(Buffer.concat(chunks).equals(bytes.subarray(start, end + 1)), `${start}-${end}`);
      }
      assert.equal(await store.get(key('range-missing.bin'), { start: 0, end: 1 }), null);
      await store.delete(key('range.bin'));
    });

    test('exact and maximum sizes: a refused body leaves nothing behind', T, async () => {
      const bytes = randomBytes(1000);
      const refused = async (k: string, options: object, kind: string) => {
        await assert.rejects(
          store.put(key(k), Readable.from([bytes]), options),
          (err: unknown) => err instanceof BlobSizeError && err.kind === kind,
        );
        assert.equal(await store.stat(key(k)), null, `${k} left behind`);
      };
      await refused('short', { exactBytes: 1001 }, 'too_short');
      await refused('long', { exactBytes: 999 }, 'too_large');
      await refused('max', { maxBytes: 999 }, 'too_large');
      assert.equal((await store.put(key('exact'), bytes, { exactBytes: 1000 })).size, 1000);
      assert.equal((await store.put(key('max-ok'), bytes, { maxBytes: 1000 })).size, 1000);
      await assert.rejects(store.read(key('exact'), 999), BlobSizeError);
    });

    test('ranged reads: start, middle past the head, the end, past the end', T, async () => {
      const bytes = randomBytes(200_000);
      await store.put(key('ranged'), bytes);
      const source = await store.openSource(key('ranged'));
      assert.ok(source);
      try {
        assert.equal(source.size, bytes.length);
        assert.ok((await source.read(0, 16)).equals(bytes.subarray(0, 16)));
        assert.ok((await source.read(100_000, 300)).equals(bytes.subarray(100_000, 100_300)));
        assert.ok((await source.read(199_990, 100)).equals(bytes.subarray(199_990)));
        assert.equal((await source.read(250_000, 10)).length, 0);
      } finally {
        await source.close();
      }
    });

    test('a local file for readers of files, removed after when it is a copy', T, async () => {
      const bytes = randomBytes(5000);
      await store.put(key('file'), bytes);
      let seen = '';
      const got = await store.withLocalFile(key('file'), 5000, async (path) => {
        seen = path;
        return readFile(path);
      });
      assert.ok(got.equals(bytes));
      if (name === 's3') assert.equal(existsSync(seen), false);
      await assert.rejects(
        store.withLocalFile(key('file'), 4999, () => Promise.resolve()),
        BlobSizeError,
      );
    });

    test('a stream larger than one part (multipart), and one over its limit', T, async () => {
      const big = stream(11 * MiB);
      const stored = await store.put(key('big'), big.body, { maxBytes: 12 * MiB });
      assert.deepEqual(stored, { size: 11 * MiB, sha256: big.sha256 });
      assert.deepEqual(await store.stat(key('big')), { size: 11 * MiB });
      // Refused in its third part: no object appears, and the multipart upload is
      // aborted (s3rver answers AbortMultipartUpload with 405; its parts stay on its disk).
      await assert.rejects(
        store.put(key('too-big'), stream(11 * MiB).body, { maxBytes: 10 * MiB }),
        BlobSizeError,
      );
      assert.equal(await store.stat(key('too-big')), null);
    });

    test('check() accepts a usable store', T, async () => {
      await store.check();
    });

    if (name === 'local') {
      test('no presigned URLs: callers sign their own', async () => {
        const options = { size: 1, contentType: 'image/png', expiresInSeconds: 60 };
        assert.equal(await store.presignPut(key('x'), options), null);
        assert.equal(store.presignGet(key('x'), options), null);
      });
      return;
    }

    test('a presigned PUT is bound to its size and type', T, async () => {
      const bytes = randomBytes(4000);
      const url = await store.presignPut(key('put'), {
        size: bytes.length,
        contentType: 'video/mp4',
        expiresInSeconds: 600,
      });
      assert.ok(url);
      const signed = new URL(url).searchParams.get('X-Amz-SignedHeaders');
      assert.equal(signed, 'content-length;content-type;host');
      const ok = await fetch(url, {
        method: 'PUT',
        headers: { 'content-type': 'video/mp4' },
        body: bytes,
      });
      assert.equal(ok.status, 200, await ok.text());
      assert.deepEqual(await store.stat(key('put')), { size: bytes.length });
      const other = await fetch(url, {
        method: 'PUT',
        headers: { 'content-type': 'video/mp4' },
        body: randomBytes(4001),
      });
      const otherType = await fetch(url, {
        method: 'PUT',
        headers: { 'content-type': 'image/png' },
        body: bytes,
      });
      if (s3.enforcesSignatures) {
        assert.equal(other.status, 403);
        assert.equal(otherType.status, 403);
        assert.deepEqual(await store.stat(key('put')), { size: bytes.length });
      } else {
        // s3rver does not verify SigV4 signatures at all (only the key id and the
        // expiry): it stores both. The service's `complete` checks the size itself.
        assert.equal(other.status, 200);
        assert.equal(otherType.status, 200);
      }
    });

    test('a presigned GET serves the bytes with their type, then expires', T, async () => {
      const bytes = randomBytes(3000);
      await store.put(key('get.jpg'), bytes);
      const url = store.presignGet(key('get.jpg'), {
        contentType: 'image/jpeg',
        expiresInSeconds: 600,
      });
      assert.ok(url);
      const res = await fetch(url);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'image/jpeg');
      assert.ok(Buffer.from(await res.arrayBuffer()).equals(bytes));
      // Signed two hours ago for one hour: expired by the bucket's clock.
      const old = new S3BlobStore(s3.config, { now: () => new Date(Date.now() - 7_200_000) });
      try {
        const stale = old.presignGet(key('get.jpg'), {
          contentType: 'image/jpeg',
          expiresInSeconds: 3600,
        });
        assert.equal((await fetch(stale)).status, 403);
      } finally {
        old.close();
      }
    });

    test('presigned GETs are the SDK presigner’s URLs, byte for byte', T, async () => {
      const s = store as S3BlobStore;
      const signingDate = new Date('2026-05-06T07:08:09Z');
      for (const [k, type] of [
        ['uploads/co_1/upl_a.b1c2', 'video/quicktime'],
        ['posts/co_1/pst_1/slide-0.jpg', 'image/jpeg'],
      ] as const) {
        const sdk = await getSignedUrl(
          s.client,
          new GetObjectCommand({ Bucket: s3.config.bucket, Key: k, ResponseContentType: type }),
          { expiresIn: 3600, signingDate },
        );
        const ours = presignGetUrl({ ...s3.config, endpoint: s3.config.publicEndpoint }, k, {
          expiresInSeconds: 3600,
          signedAt: signingDate,
          responseContentType: type,
        });
        const sorted = (u: string) => {
          const url = new URL(u);
          url.searchParams.sort();
          return url.toString();
        };
        assert.equal(sorted(ours), sorted(sdk));
      }
    });

    test('check() names a bucket that does not exist', T, async () => {
      const missing = new S3BlobStore({ ...s3.config, bucket: 'no-such-bucket-here' });
      try {
        await assert.rejects(missing.check(), /Bucket "no-such-bucket-here" .* does not exist/);
      } finally {
        missing.close();
      }
    });
  });
}
