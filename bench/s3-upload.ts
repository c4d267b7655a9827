// Object storage: a ~10 MB body PUT through a presigned URL (what callers of a signed
// upload do) against the same body put with the SDK's PutObject, both to one s3rver in
// process. The presigned form should cost about what a direct PUT costs.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { S3BlobStore } from '../src/media/s3-blob-store.ts';
import { parseStorageUrl } from '../src/media/storage-config.ts';

const SIZE = 10 * 1024 * 1024;
const RUNS = 7;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

export async function benchS3Upload() {
  const directory = await mkdtemp(join(tmpdir(), 'slotline-bench-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'bench', configs: [] }],
  });
  const { port } = (await server.run()) as { port: number };
  const store = new S3BlobStore(parseStorageUrl(`s3+http://S3RVER:S3RVER@127.0.0.1:${port}/bench`));
  const body = randomBytes(SIZE);
  const presigned: number[] = [];
  const direct: number[] = [];
  try {
    // One warm-up of each, then alternate so both see the same machine state.
    for (let i = -1; i < RUNS; i++) {
      const url = await store.presignPut(`bench/presigned-${i}`, {
        size: SIZE,
        contentType: 'video/mp4',
        expiresInSeconds: 600,
      });
      let t0 = performance.now();
      const res = await fetch(url, {
        method: 'PUT',
        headers: { 'content-type': 'video/mp4' },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`presigned PUT answered ${res.status}`);
      if (i >= 0) presigned.push(performance.now() - t0);
      t0 = performance.now();
      await store.client.send(
        new PutObjectCommand({
          Bucket: 'bench',
          Key: `bench/direct-${i}`,
          Body: body,
          ContentType: 'video/mp4',
        }),
      );
      if (i >= 0) direct.push(performance.now() - t0);
    }
  } finally {
    store.close();
    await server.close();
    await rm(directory, { recursive: true, force: true });
  }
  const presignedMs = Math.round(median(presigned) * 10) / 10;
  const directMs = Math.round(median(direct) * 10) / 10;
  const ratio = Math.round((presignedMs / directMs) * 100) / 100;
  const result = {
    benchmark: `PUT ${SIZE / 1048576} MiB to s3rver: presigned URL vs SDK PutObject (median of ${RUNS})`,
    presignedMs,
    directMs,
    ratio,
    target: 'presigned PUT within 1.5x of a direct PutObject',
    pass: ratio <= 1.5,
  };
  console.log(`\n${result.benchmark}`);
  console.log(`  presigned PUT (fetch)   ${presignedMs} ms`);
  console.log(`  PutObject (SDK)         ${directMs} ms`);
  console.log(`  ratio ${ratio} (target ${result.target}) ${result.pass ? 'PASS' : 'FAIL'}`);
  return result;
}
