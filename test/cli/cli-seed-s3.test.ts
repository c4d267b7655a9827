// `slotline seed demo` with media in an S3-compatible bucket (s3rver in process, or the
// server of SLOTLINE_TEST_S3_URL), on both databases: the seed stores its uploads' bytes
// where a presigned PUT would, and a seed that fails part-way leaves no row and no object.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/databases.ts';
import { describeEachDialect } from '../helpers/dialects.ts';
import { useCli } from '../helpers/cli.ts';
import { rowsLeft } from '../helpers/rows-left.ts';
import { startS3 } from '../helpers/s3.ts';
import type { BlobStore } from '../../src/media/blob-store.ts';
import { S3BlobStore } from '../../src/media/s3-blob-store.ts';
import { SeedError, seedDemo } from '../../src/cli/seed.ts';
import { incomingKey, uploadThumbnailKey } from '../../src/modules/uploads/index.ts';

const s3 = await startS3();
// The test's own client of the bucket, for looking at what the seeds left there.
const bucket = new S3BlobStore(s3.config);
after(async () => {
  bucket.close();
  await s3.close();
});

for (const dialect of DIALECTS) {
  describe(`slotline seed demo on object storage [${dialect}]`, () => {
    const { cliJson, withDb } = useCli(dialect, { STORAGE_URL: s3.url });

    test('seeds ready uploads with thumbnails in the bucket', { timeout: 200_000 }, async () => {
      const r = await cliJson('seed', 'demo');
      assert.equal(r.accountIds.length, 4);
      const statuses = r.posts.map((p: { status: string }) => p.status).sort();
      assert.deepEqual(statuses, [...Array(5).fill('queued'), 'pending_approval'].sort());
      const uploads = await withDb((ctx) =>
        ctx.db
          .selectFrom('uploads')
          .select(['id', 'status', 'blob_key', 'thumbnail_key'])
          .where('company_id', '=', r.companyId)
          .execute(),
      );
      // One image per demo post, two for the one with two.
      assert.equal(uploads.length, 7);
      for (const u of uploads) {
        assert.equal(u.status, 'ready', u.id);
        assert.equal(u.thumbnail_key, uploadThumbnailKey(u.id));
        assert.ok(await bucket.stat(u.blob_key), `${u.blob_key} is in the bucket`);
        assert.ok(await bucket.stat(u.thumbnail_key), `${u.thumbnail_key} is in the bucket`);
        // Adopted by `complete`, as a presigned PUT's object is.
        assert.equal(await bucket.stat(incomingKey(r.companyId, u.id)), null);
      }
    });
  });
}

interface FailingBucket {
  store: BlobStore;
  /** Every key written since the last reset, including writes that failed. */
  written: string[];
  /** Forgets what was written and counts copies from zero again. */
  reset(): void;
}

/**
 * The bucket, recording every key written to it, whose `copy` (the step of `complete`
 * that adopts a presigned PUT's object) fails from its `failAt`-th call on.
 */
function failingBucket(inner: BlobStore, failAt: number): FailingBucket {
  const written: string[] = [];
  let copies = 0;
  const reset = () => {
    written.length = 0;
    copies = 0;
  };
  const store: BlobStore = {
    put: (key, source, options) => {
      written.push(key);
      return inner.put(key, source, options);
    },
    copy: async (from, to) => {
      copies += 1;
      if (copies >= failAt) throw new Error('the bucket refused the copy');
      written.push(to);
      await inner.copy(from, to);
    },
    get: (key) => inner.get(key),
    stat: (key) => inner.stat(key),
    delete: (key) => inner.delete(key),
    openSource: (key) => inner.openSource(key),
    withLocalFile: (key, maxBytes, fn) => inner.withLocalFile(key, maxBytes, fn),
    read: (key, maxBytes) => inner.read(key, maxBytes),
    presignPut: (key, options) => inner.presignPut(key, options),
    presignGet: (key, options) => inner.presignGet(key, options),
    check: () => inner.check(),
  };
  return { store, written, reset };
}

const failing = failingBucket(bucket, 3);
describeEachDialect(
  'seed demo failing part-way on object storage',
  (get) => {
    test('removes every row and object it made', { timeout: 120_000 }, async () => {
      const t = get();
      failing.reset();
      const err = await seedDemo(t.ctx).then(
        () => assert.fail('the seed should fail'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof SeedError, String(err));
      assert.match(
        err.message,
        /^seed demo failed: the bucket refused the copy; demo company cmp_\S+ and everything made for it were removed$/,
      );
      assert.deepEqual(await rowsLeft(t.ctx.db), {});
      // Workspace images, two adopted uploads with thumbnails, and the third's incoming object.
      assert.ok(failing.written.some((k) => k.startsWith('images/')));
      assert.ok(failing.written.some((k) => k.startsWith('thumbnails/')));
      assert.ok(failing.written.some((k) => k.startsWith('incoming/')));
      for (const key of failing.written) {
        assert.equal(await bucket.stat(key), null, `${key} was deleted`);
      }
    });
  },
  { env: { STORAGE_URL: s3.url }, blobs: failing.store },
);
