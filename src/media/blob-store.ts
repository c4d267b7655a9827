// Where media bytes live. The embedded default keeps them on local disk under
// DATA_DIR; an object store (S3-compatible) implements the same interface.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { constants } from 'node:fs';
import { access, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomToken } from '../lib/ids.ts';

export interface PutOptions {
  /** Refuse (and store nothing) once more than this many bytes arrive. */
  maxBytes?: number;
  /** Refuse (and store nothing) unless exactly this many bytes arrive. */
  exactBytes?: number;
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

export interface BlobStore {
  /**
   * Stores bytes under `key`; nothing is visible under the key until all bytes are
   * written. The result names their size and SHA-256 (hex), computed as they stream.
   */
  put(key: string, source: Readable | Buffer, options?: PutOptions): Promise<StoredBlob>;
  get(key: string): Promise<Readable | null>;
  stat(key: string): Promise<{ size: number } | null>;
  /** A local file path for in-process readers (probing); null for remote stores. */
  localPath(key: string): string | null;
  delete(key: string): Promise<void>;
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

  localPath(key: string): string {
    return this.path(key);
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

  async get(key: string): Promise<Readable | null> {
    const p = this.path(key);
    try {
      await stat(p);
    } catch {
      return null;
    }
    return createReadStream(p);
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
    await rm(this.path(key), { force: true });
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.R_OK | constants.W_OK);
  }
}
