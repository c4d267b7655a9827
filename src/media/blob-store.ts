// Where media bytes live. The embedded default keeps them on local disk under
// DATA_DIR; an object store (S3-compatible) implements the same interface.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { constants } from 'node:fs';
import { access, copyFile, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomToken } from '../lib/ids.ts';
import { FileSource, type ByteSource } from './probe/source.ts';

export interface PutOptions {
  /** Refuse (and store nothing) once more than this many bytes arrive. */
  maxBytes?: number;
  /** Refuse (and store nothing) unless exactly this many bytes arrive. */
  exactBytes?: number;
  /** Stored with the object where the store keeps a type (object storage). */
  contentType?: string;
}

export class BlobSizeError extends Error {
  constructor(
    readonly kind: 'too_large' | 'too_short',
    readonly received: number,
  ) {
    super(kind === 'too_large' ? 'body is longer than allowed' : 'body is shorter than declared');
  }
}

export interface StoredBlob {
  size: number;
  sha256: string;
}

/** A stored blob opened for ranged reads (the probes); close it when done. */
export interface BlobSource extends ByteSource {
  close(): Promise<void>;
}

export interface PresignPutOptions {
  /** The exact Content-Length the URL accepts. */
  size: number;
  /** The exact Content-Type the URL accepts. */
  contentType: string;
  expiresInSeconds: number;
}

export interface PresignGetOptions {
  /** The Content-Type the download is served with. */
  contentType: string;
  expiresInSeconds: number;
}

/** Bytes `start` to `end` of a blob, both inclusive, as an HTTP Range names them. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BlobStore {
  /**
   * Stores bytes under `key`; nothing is visible under the key until all bytes are
   * written. The result names their size and SHA-256 (hex), computed as they stream.
   */
  put(key: string, source: Readable | Buffer, options?: PutOptions): Promise<StoredBlob>;
  /** The blob's bytes, or only those of `range` (both ends inclusive); null when there is none. */
  get(key: string, range?: ByteRange): Promise<Readable | null>;
  stat(key: string): Promise<{ size: number } | null>;
  delete(key: string): Promise<void>;
  /** Random access to a stored blob, for the probes; null when there is none. */
  openSource(key: string): Promise<BlobSource | null>;
  /**
   * Runs `fn` with a local file holding the blob (ffmpeg reads files), removed after
   * where it is a copy; BlobSizeError when the blob is larger than `maxBytes`.
   */
  withLocalFile<T>(key: string, maxBytes: number, fn: (path: string) => Promise<T>): Promise<T>;
  /** The whole blob in memory, null when there is none; BlobSizeError past `maxBytes`. */
  read(key: string, maxBytes: number): Promise<Buffer | null>;
  /** Copies a blob inside the store; `to` appears whole or not at all. */
  copy(from: string, to: string): Promise<void>;
  /**
   * A URL that stores exactly `size` bytes of `contentType` under `key` with one PUT, made
   * by the store itself; null when the store has none (callers then sign their own URL).
   */
  presignPut(key: string, options: PresignPutOptions): Promise<string | null>;
  /**
   * An expiring download URL served by the store itself; null when the store has none.
   * Synchronous, so response bodies with URLs can be written without waiting.
   */
  presignGet(key: string, options: PresignGetOptions): string | null;
  /** Resolves when the store can be read and written; rejects with the reason otherwise. */
  check(): Promise<void>;
}

const KEY = /^[a-z0-9][a-z0-9_.-]*(\/[a-z0-9][a-z0-9_.-]*)*$/i;

export class LocalBlobStore implements BlobStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private path(key: string): string {
    if (!KEY.test(key) || key.includes('..')) throw new Error(`invalid blob key "${key}"`);
    const p = resolve(join(this.root, key));
    if (!p.startsWith(this.root + sep)) throw new Error(`invalid blob key "${key}"`);
    return p;
  }

  async put(key: string, source: Readable | Buffer, options: PutOptions = {}): Promise<StoredBlob> {
    const final = this.path(key);
    await mkdir(dirname(final), { recursive: true });
    const temp = `${final}.${randomToken(6)}.partial`;
    let size = 0;
    const hash = createHash('sha256');
    const limit = options.exactBytes ?? options.maxBytes ?? Number.POSITIVE_INFINITY;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        if (size > limit) cb(new BlobSizeError('too_large', size));
        else {
          hash.update(chunk);
          cb(null, chunk);
        }
      },
    });
    const input = Buffer.isBuffer(source) ? Readable.from([source]) : source;
    try {
      await pipeline(input, counter, createWriteStream(temp, { flags: 'wx' }));
      if (options.exactBytes !== undefined && size !== options.exactBytes) {
        throw new BlobSizeError('too_short', size);
      }
      await rename(temp, final);
      return { size, sha256: hash.digest('hex') };
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    const p = this.path(key);
    try {
      await stat(p);
    } catch {
      return null;
    }
    return createReadStream(p, range && { start: range.start, end: range.end });
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const s = await stat(this.path(key));
      return { size: s.size };
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await rm(this.path(key), { force: true });
    } catch (err) {
      // A file where a folder of the key should be: the key cannot exist, so it is deleted.
      if ((err as NodeJS.ErrnoException).code !== 'ENOTDIR') throw err;
    }
  }

  async openSource(key: string): Promise<BlobSource | null> {
    const p = this.path(key);
    if (!(await this.stat(key))) return null;
    return FileSource.open(p);
  }

  async withLocalFile<T>(
    key: string,
    maxBytes: number,
    fn: (path: string) => Promise<T>,
  ): Promise<T> {
    const found = await this.stat(key);
    if (!found) throw new Error(`blob "${key}" does not exist`);
    if (found.size > maxBytes) throw new BlobSizeError('too_large', found.size);
    // The file itself: nothing is copied on local disk.
    return fn(this.path(key));
  }

  async read(key: string, maxBytes: number): Promise<Buffer | null> {
    const found = await this.stat(key);
    if (!found) return null;
    if (found.size > maxBytes) throw new BlobSizeError('too_large', found.size);
    return readFile(this.path(key));
  }

  async copy(from: string, to: string): Promise<void> {
    const source = this.path(from);
    const final = this.path(to);
    await mkdir(dirname(final), { recursive: true });
    const temp = `${final}.${randomToken(6)}.partial`;
    try {
      await copyFile(source, temp, constants.COPYFILE_EXCL);
      await rename(temp, final);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  presignPut(): Promise<string | null> {
    return Promise.resolve(null);
  }

  presignGet(): string | null {
    return null;
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.R_OK | constants.W_OK);
  }
}
