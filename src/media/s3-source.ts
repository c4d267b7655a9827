// A ByteSource over ranged GETs of one object, for the probes: like FileSource, the
// first 64 KiB are read once and serve every small header read, so validating a 200 MB
// video costs a few small requests.
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { MediaReadError } from './probe/types.ts';
import type { BlobSource } from './blob-store.ts';

const HEAD_BYTES = 64 * 1024;

export class S3RangeSource implements BlobSource {
  /** Bytes fetched so far and the number of requests (for tests and benchmarks). */
  bytesRead = 0;
  requests = 0;
  private head: Buffer = Buffer.alloc(0);

  private constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly key: string,
    readonly size: number,
  ) {}

  static async open(
    client: S3Client,
    bucket: string,
    key: string,
    size: number,
  ): Promise<S3RangeSource> {
    const source = new S3RangeSource(client, bucket, key, size);
    source.head = await source.fetch(0, Math.min(HEAD_BYTES, size));
    return source;
  }

  async read(offset: number, length: number): Promise<Buffer> {
    const start = Math.max(0, Math.min(offset, this.size));
    const end = Math.min(this.size, start + Math.max(0, length));
    if (end <= this.head.length) return this.head.subarray(start, end);
    return this.fetch(start, end - start);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private async fetch(offset: number, length: number): Promise<Buffer> {
    if (length <= 0) return Buffer.alloc(0);
    this.requests += 1;
    try {
      const res = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.key,
          Range: `bytes=${offset}-${offset + length - 1}`,
        }),
      );
      const bytes = Buffer.from(
        await (res.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
      );
      this.bytesRead += bytes.length;
      // A server that ignores Range answers the whole object: keep the asked part only.
      if (bytes.length > length && res.ContentRange === undefined) {
        return bytes.subarray(offset, offset + length);
      }
      return bytes.length > length ? bytes.subarray(0, length) : bytes;
    } catch (cause) {
      throw new MediaReadError(`cannot read stored media: ${(cause as Error).name}`, { cause });
    }
  }
}
