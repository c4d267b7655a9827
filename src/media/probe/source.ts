// Random-access byte sources for the probes. Files are read with positioned reads on
// a file handle, never loaded whole: a 200 MB upload costs a few small reads.
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { MediaReadError } from './types.ts';

export interface ByteSource {
  /** Total size in bytes. */
  readonly size: number;
  /**
   * Up to `length` bytes at `offset`; fewer only at end of file. The buffer may be a
   * view of a shared cache: callers must not modify it.
   */
  read(offset: number, length: number): Promise<Buffer>;
}

/** The first read of every file; covers `ftyp`, the first box headers and small images. */
const HEAD_BYTES = 64 * 1024;

export class FileSource implements ByteSource {
  /** Bytes requested from the operating system so far (for tests and benchmarks). */
  bytesRead = 0;
  private head: Buffer = Buffer.alloc(0);

  private constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

  static async open(path: string): Promise<FileSource> {
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch (cause) {
      throw new MediaReadError(`cannot open media file: ${describe(cause)}`, { cause });
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new MediaReadError('media path is not a regular file');
      const source = new FileSource(handle, stat.size);
      source.head = await source.readRaw(0, Math.min(HEAD_BYTES, stat.size));
      return source;
    } catch (cause) {
      await handle.close().catch(() => undefined);
      if (cause instanceof MediaReadError) throw cause;
      throw new MediaReadError(`cannot read media file: ${describe(cause)}`, { cause });
    }
  }

  async read(offset: number, length: number): Promise<Buffer> {
    const start = Math.max(0, Math.min(offset, this.size));
    const end = Math.min(this.size, start + Math.max(0, length));
    if (end <= this.head.length) return this.head.subarray(start, end);
    try {
      return await this.readRaw(start, end - start);
    } catch (cause) {
      throw new MediaReadError(`cannot read media file: ${describe(cause)}`, { cause });
    }
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  private async readRaw(offset: number, length: number): Promise<Buffer> {
    const buffer = Buffer.alloc(length);
    let filled = 0;
    // Short reads are legal before EOF; loop until the range is filled or EOF.
    while (filled < length) {
      const { bytesRead } = await this.handle.read(
        buffer,
        filled,
        length - filled,
        offset + filled,
      );
      if (bytesRead === 0) break;
      filled += bytesRead;
      this.bytesRead += bytesRead;
    }
    return filled === length ? buffer : buffer.subarray(0, filled);
  }
}

/** An in-memory source, for callers that already hold the bytes. */
export function bufferSource(bytes: Uint8Array): ByteSource {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    size: buffer.length,
    read: (offset, length) => {
      const start = Math.max(0, Math.min(offset, buffer.length));
      return Promise.resolve(buffer.subarray(start, Math.min(buffer.length, start + length)));
    },
  };
}

/** Opens `path`, runs `fn`, and always closes the handle. */
export async function withFileSource<T>(
  path: string,
  fn: (source: FileSource) => Promise<T>,
): Promise<T> {
  const source = await FileSource.open(path);
  try {
    return await fn(source);
  } finally {
    await source.close().catch(() => undefined);
  }
}

function describe(cause: unknown): string {
  if (cause instanceof Error) return (cause as NodeJS.ErrnoException).code ?? cause.message;
  return String(cause);
}

/**
 * Serves small reads (box or segment headers) from a window of the source, so walking
 * thousands of tiny headers costs a few reads instead of one each. The window doubles
 * (up to 1 MiB) while reads keep landing just past it, as with many small fragments,
 * and drops back to its base size when a read jumps far ahead, as over a large `mdat`.
 */
export class WindowedReader {
  private start = 0;
  private bytes: Buffer = Buffer.alloc(0);
  private size: number;

  constructor(
    private readonly source: ByteSource,
    private readonly baseSize = 4096,
    private readonly maxSize = 1024 * 1024,
  ) {
    this.size = baseSize;
  }

  /** The bytes when the window already holds them, without waiting; null otherwise. */
  peek(offset: number, length: number): Buffer | null {
    const end = Math.min(offset + length, this.source.size);
    if (offset >= this.start && end <= this.start + this.bytes.length) {
      return this.bytes.subarray(offset - this.start, end - this.start);
    }
    return null;
  }

  async read(offset: number, length: number): Promise<Buffer> {
    const held = this.peek(offset, length);
    if (held) return held;
    // "Near": the miss lands within one window size past the current window.
    const near = offset >= this.start && offset < this.start + this.bytes.length + this.size;
    this.size = near ? Math.min(this.size * 2, this.maxSize) : this.baseSize;
    this.bytes = await this.source.read(offset, Math.max(length, this.size));
    this.start = offset;
    return this.bytes.subarray(0, Math.min(length, this.bytes.length));
  }
}
