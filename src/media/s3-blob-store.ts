// Media bytes in an S3-compatible bucket (AWS S3, MinIO, Swift's s3api, ...). Callers
// upload and download through presigned URLs; the service itself streams only what it
// fetches from remote sources, and reads ranges of what it validates.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform, pipeline as pipeCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  BlobSizeError,
  type BlobSource,
  type BlobStore,
  type ByteRange,
  type PresignGetOptions,
  type PresignPutOptions,
  type PutOptions,
  type StoredBlob,
} from './blob-store.ts';
import { S3RangeSource } from './s3-source.ts';
import { presignGetUrl, type PresignTarget } from './s3-presign.ts';
import type { S3StorageConfig } from './storage-config.ts';

export interface S3StoreOptions {
  /** Multipart part size in bytes (at least 5 MiB, the S3 minimum). */
  partSize?: number;
  /** The wall clock presigned URLs are dated by: the bucket checks them against its own. */
  now?: () => Date;
}

const KEY = /^[a-z0-9][a-z0-9_.-]*(\/[a-z0-9][a-z0-9_.-]*)*$/i;

function clientFor(config: S3StorageConfig, endpoint: string): S3Client {
  return new S3Client({
    endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // Since SDK v3.729 every request carries CRC checksum headers by default, which
    // servers other than AWS S3 refuse; send and check them only where S3 demands it.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

function notFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}

/** Counts and hashes bytes as they pass, failing past `limit` (and short of `exact`). */
function meter(limit: number, exact: number | undefined) {
  const hash = createHash('sha256');
  const state: { size: number; refused: BlobSizeError | null } = { size: 0, refused: null };
  const refuse = (kind: BlobSizeError['kind']) =>
    (state.refused = new BlobSizeError(kind, state.size));
  const stream = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      state.size += chunk.length;
      if (state.size > limit) cb(refuse('too_large'));
      else {
        hash.update(chunk);
        cb(null, chunk);
      }
    },
    flush(cb) {
      // Failing here, before the end, makes the upload fail rather than complete short.
      if (exact !== undefined && state.size !== exact) cb(refuse('too_short'));
      else cb();
    },
  });
  return { stream, state, digest: () => hash.digest('hex') };
}

export class S3BlobStore implements BlobStore {
  readonly client: S3Client;
  private readonly signing: S3Client;
  private readonly target: PresignTarget;
  private readonly partSize: number;
  private readonly now: () => Date;

  constructor(
    readonly config: S3StorageConfig,
    options: S3StoreOptions = {},
  ) {
    this.client = clientFor(config, config.endpoint);
    // Presigned URLs name the address callers reach, which may differ from ours.
    this.signing =
      config.publicEndpoint === config.endpoint
        ? this.client
        : clientFor(config, config.publicEndpoint);
    this.target = { ...config, endpoint: config.publicEndpoint };
    this.partSize = options.partSize ?? 8 * 1024 * 1024;
    this.now = options.now ?? (() => new Date());
  }

  private checkKey(key: string): string {
    if (!KEY.test(key) || key.includes('..')) throw new Error(`invalid blob key "${key}"`);
    return key;
  }

  async put(key: string, source: Readable | Buffer, options: PutOptions = {}): Promise<StoredBlob> {
    const limit = options.exactBytes ?? options.maxBytes ?? Number.POSITIVE_INFINITY;
    const m = meter(limit, options.exactBytes);
    const input = Buffer.isBuffer(source) ? Readable.from([source]) : source;
    // A failing source fails the meter, and with it the upload.
    pipeCallback(input, m.stream, () => undefined);
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.config.bucket,
        Key: this.checkKey(key),
        Body: m.stream,
        ...(options.contentType ? { ContentType: options.contentType } : {}),
      },
      partSize: this.partSize,
      // Two parts in memory at most; a failed multipart upload is aborted, not left behind.
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      input.destroy();
      m.stream.destroy();
      // The size refusal is the cause, even when aborting the multipart upload failed too.
      throw m.state.refused ?? err;
    }
    return { size: m.state.size, sha256: m.digest() };
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    try {
      const res = await this.client.send(
        new GetObjectCommand({
          Bucket: this.config.bucket,
          Key: this.checkKey(key),
          ...(range && { Range: `bytes=${range.start}-${range.end}` }),
        }),
      );
      return res.Body as Readable;
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const res = await this.client.send(
        new HeadObjectCommand({ Bucket: this.config.bucket, Key: this.checkKey(key) }),
      );
      return { size: res.ContentLength ?? 0 };
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.checkKey(key) }),
    );
  }

  async openSource(key: string): Promise<BlobSource | null> {
    const found = await this.stat(key);
    if (!found) return null;
    return S3RangeSource.open(this.client, this.config.bucket, key, found.size);
  }

  async withLocalFile<T>(
    key: string,
    maxBytes: number,
    fn: (path: string) => Promise<T>,
  ): Promise<T> {
    const body = await this.get(key);
    if (!body) throw new Error(`blob "${key}" does not exist`);
    const dir = await mkdtemp(join(tmpdir(), 'slotline-blob-'));
    try {
      const path = join(dir, 'blob');
      await pipeline(body, meter(maxBytes, undefined).stream, createWriteStream(path));
      return await fn(path);
    } finally {
      body.destroy();
      await rm(dir, { recursive: true, force: true });
    }
  }

  async read(key: string, maxBytes: number): Promise<Buffer | null> {
    const body = await this.get(key);
    if (!body) return null;
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) throw new BlobSizeError('too_large', size);
        chunks.push(chunk);
      }
    } finally {
      body.destroy();
    }
    return Buffer.concat(chunks, size);
  }

  async copy(from: string, to: string): Promise<void> {
    const source = this.checkKey(from).split('/').map(encodeURIComponent).join('/');
    await this.client.send(
      new CopyObjectCommand({
        Bucket: this.config.bucket,
        Key: this.checkKey(to),
        CopySource: `${this.config.bucket}/${source}`,
      }),
    );
  }

  presignPut(key: string, options: PresignPutOptions): Promise<string> {
    const command = new PutObjectCommand({
      Bucket: this.config.bucket,
      Key: this.checkKey(key),
      ContentLength: options.size,
      ContentType: options.contentType,
    });
    return getSignedUrl(this.signing, command, {
      expiresIn: options.expiresInSeconds,
      signingDate: this.now(),
      // Signed, so the bucket refuses a body of another length or type.
      signableHeaders: new Set(['content-length', 'content-type']),
    });
  }

  presignGet(key: string, options: PresignGetOptions): string {
    return presignGetUrl(this.target, this.checkKey(key), {
      expiresInSeconds: options.expiresInSeconds,
      signedAt: this.now(),
      responseContentType: options.contentType,
    });
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.config.bucket }));
    } catch (err) {
      const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
      const status = e.$metadata?.httpStatusCode;
      const why =
        status === 404 || e.name === 'NotFound'
          ? 'does not exist'
          : status === 403
            ? 'is not accessible with these credentials (403)'
            : `cannot be reached (${e.name ?? 'error'}: ${e.message ?? ''})`;
      throw new Error(`Bucket "${this.config.bucket}" at ${this.config.endpoint} ${why}`, {
        cause: err,
      });
    }
  }

  /** Releases the HTTP agents' sockets. */
  close(): void {
    this.client.destroy();
    if (this.signing !== this.client) this.signing.destroy();
  }
}
