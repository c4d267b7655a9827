// An S3-compatible server for tests: s3rver in process (port 0, a temp directory, one
// bucket), or, when SLOTLINE_TEST_S3_URL is set (a STORAGE_URL-style address), that
// real server instead. s3rver checks the access key id and the expiry of presigned
// URLs but not SigV4 signatures themselves: `enforcesSignatures` says which is running.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { parseStorageUrl, type S3StorageConfig } from '../../src/media/storage-config.ts';

export interface TestS3 {
  /** The STORAGE_URL naming the bucket. */
  url: string;
  config: S3StorageConfig;
  /** True on a real server, which refuses a request whose signed headers differ. */
  enforcesSignatures: boolean;
  close(): Promise<void>;
}

const BUCKET = 'slotline-test';

export async function startS3(): Promise<TestS3> {
  // Read here, not in the service: the suite's own switch of target.
  const external = process.env.SLOTLINE_TEST_S3_URL;
  if (external) {
    return {
      url: external,
      config: parseStorageUrl(external),
      enforcesSignatures: true,
      close: async () => {},
    };
  }
  const directory = await mkdtemp(join(tmpdir(), 'slotline-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const address = (await server.run()) as { port: number };
  // s3rver's built-in account.
  const url = `s3+http://S3RVER:S3RVER@127.0.0.1:${address.port}/${BUCKET}`;
  return {
    url,
    config: parseStorageUrl(url),
    enforcesSignatures: false,
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
