// ISO/IEC 14496-12 §4.2 box headers and a bounded in-memory box tree.
// Every declared size is checked against its parent before it is used, every loop
// makes strict forward progress, and nothing is allocated from a declared size.

/** A parse failure. `not_mp4`: the bytes are not ISO-BMFF at all; `invalid`: broken MP4/MOV. */
export class ProbeError extends Error {
  constructor(
    readonly kind: 'not_mp4' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'ProbeError';
  }
}

export function invalid(message: string): ProbeError {
  return new ProbeError('invalid', message);
}

/** Deepest nesting accepted inside `moov`/`moof` (real files stay under 10). */
export const MAX_DEPTH = 16;
/** Most boxes accepted in one parsed tree; a 3-minute `moov` has a few dozen. */
export const MAX_BOXES = 10_000;

export interface Box {
  type: string;
  /** Offsets into the buffer holding the tree. */
  start: number;
  payloadStart: number;
  end: number;
  children: Box[] | null;
}

/** Boxes whose payload is only child boxes and that the probe descends into. */
const CONTAINERS = new Set([
  'moov',
  'trak',
  'mdia',
  'minf',
  'stbl',
  'edts',
  'mvex',
  'dinf',
  'moof',
  'traf',
  'sinf',
  'schi',
  'wave',
]);

function readU32(buf: Uint8Array, at: number): number {
  return (
    (buf[at] ?? 0) * 0x1000000 +
    ((buf[at + 1] ?? 0) << 16) +
    ((buf[at + 2] ?? 0) << 8) +
    (buf[at + 3] ?? 0)
  );
}

export function fourcc(buf: Uint8Array, at: number): string {
  return String.fromCharCode(buf[at] ?? 0, buf[at + 1] ?? 0, buf[at + 2] ?? 0, buf[at + 3] ?? 0);
}

/** Printable ASCII, plus © (0xA9) which QuickTime uses in metadata box types. */
export function isPrintableFourcc(type: string): boolean {
  for (let i = 0; i < type.length; i += 1) {
    const c = type.charCodeAt(i);
    if ((c < 0x20 || c > 0x7e) && c !== 0xa9) return false;
  }
  return true;
}

export function label(type: string): string {
  return isPrintableFourcc(type) ? `'${type}'` : `0x${Buffer.from(type, 'latin1').toString('hex')}`;
}

export interface BoxHeader {
  type: string;
  headerSize: number;
  /** Total size including the header; `null` when the size field is 0 (extends to the end). */
  size: number | null;
}

/**
 * Decodes a box header from `bytes` (at least 8 bytes; 16 for a `largesize` box, 24 for
 * `uuid` with a largesize). `room` is the number of bytes the parent has left from the
 * start of this box; a size beyond it or below the header size is an error (built by
 * `overflow` when given, so the top level can report truncation).
 */
export function decodeHeader(
  bytes: Uint8Array,
  at: number,
  room: number,
  where: string,
  overflow?: (type: string, declared: bigint) => ProbeError,
): BoxHeader {
  if (room < 8 || bytes.length - at < 8) {
    throw invalid(
      `${where} ends with a partial box header (${Math.min(room, bytes.length - at)} bytes)`,
    );
  }
  const size32 = readU32(bytes, at);
  const boxType = fourcc(bytes, at + 4);
  let headerSize = 8;
  let size: number | null;
  if (size32 === 1) {
    if (room < 16 || bytes.length - at < 16) {
      throw invalid(`box ${label(boxType)} in ${where} is cut inside its 64-bit size`);
    }
    const large = (BigInt(readU32(bytes, at + 8)) << 32n) | BigInt(readU32(bytes, at + 12));
    headerSize = 16;
    // Compare as BigInt before converting: above 2^53 a Number would lose precision.
    if (large < 16n)
      throw invalid(`box ${label(boxType)} in ${where} has an invalid 64-bit size ${large}`);
    if (large > BigInt(room)) {
      if (overflow) throw overflow(boxType, large);
      throw invalid(
        `box ${label(boxType)} in ${where} declares ${large} bytes but only ${room} remain`,
      );
    }
    size = Number(large);
  } else if (size32 === 0) {
    size = null;
  } else {
    if (size32 < 8)
      throw invalid(`box ${label(boxType)} in ${where} has an invalid size ${size32}`);
    if (size32 > room) {
      if (overflow) throw overflow(boxType, BigInt(size32));
      throw invalid(
        `box ${label(boxType)} in ${where} declares ${size32} bytes but only ${room} remain`,
      );
    }
    size = size32;
  }
  if (boxType === 'uuid') {
    headerSize += 16;
    if ((size ?? room) < headerSize)
      throw invalid(`box 'uuid' in ${where} is shorter than its header`);
  }
  return { type: boxType, headerSize, size };
}

export interface TreeBudget {
  boxes: number;
  limit: number;
}

export function treeBudget(limit = MAX_BOXES): TreeBudget {
  return { boxes: 0, limit };
}

/**
 * Parses the boxes in `buf[start, end)` into a tree, descending into known containers.
 * A size of 0 is refused here: it is only legal for the last top-level box.
 */
export function parseBoxes(
  buf: Uint8Array,
  start: number,
  end: number,
  depth: number,
  parent: string,
  budget: TreeBudget,
): Box[] {
  if (depth > MAX_DEPTH) throw invalid(`boxes are nested deeper than ${MAX_DEPTH} levels`);
  const boxes: Box[] = [];
  let pos = start;
  while (pos < end) {
    const room = end - pos;
    // QuickTime lets atom lists end with a 32-bit zero terminator.
    if (room < 8 && isZero(buf, pos, end)) break;
    const header = decodeHeader(buf, pos, room, `'${parent}'`);
    if (header.size === null) {
      throw invalid(
        `box ${label(header.type)} in '${parent}' has size 0, which is only allowed for the last top-level box`,
      );
    }
    budget.boxes += 1;
    if (budget.boxes > budget.limit)
      throw invalid(`the file's headers hold more than ${budget.limit} boxes`);
    const boxEnd = pos + header.size;
    const payloadStart = pos + header.headerSize;
    const children = CONTAINERS.has(header.type)
      ? parseBoxes(buf, payloadStart, boxEnd, depth + 1, header.type, budget)
      : null;
    boxes.push({ type: header.type, start: pos, payloadStart, end: boxEnd, children });
    pos = boxEnd;
  }
  return boxes;
}

function isZero(buf: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i += 1) if (buf[i] !== 0) return false;
  return true;
}

export function child(box: Box | undefined, type: string): Box | undefined {
  return box?.children?.find((b) => b.type === type);
}

export function childrenOf(box: Box | undefined, type: string): Box[] {
  return box?.children?.filter((b) => b.type === type) ?? [];
}

/** Follows a path of child types, e.g. `path(trak, 'mdia', 'minf', 'stbl')`. */
export function path(box: Box | undefined, ...types: string[]): Box | undefined {
  let current = box;
  for (const type of types) current = child(current, type);
  return current;
}

/**
 * Bounds-checked big-endian reader over `buf[start, end)`. Every read past `end`
 * throws a ProbeError naming the box, so truncated payloads never read neighbours.
 */
export class Reader {
  pos: number;

  /** `where` names the data in messages; for a box it is built only when needed. */
  constructor(
    readonly buf: Uint8Array,
    start: number,
    readonly end: number,
    private readonly place: string | { box: string },
  ) {
    this.pos = start;
  }

  static of(buf: Uint8Array, box: Box): Reader {
    return new Reader(buf, box.payloadStart, box.end, { box: box.type });
  }

  get where(): string {
    return typeof this.place === 'string' ? this.place : `box ${label(this.place.box)}`;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  need(n: number): void {
    if (n < 0 || n > this.remaining) throw invalid(`${this.where} is truncated`);
  }

  skip(n: number): void {
    this.need(n);
    this.pos += n;
  }

  u8(): number {
    this.need(1);
    const v = this.buf[this.pos] ?? 0;
    this.pos += 1;
    return v;
  }

  u16(): number {
    this.need(2);
    const v = ((this.buf[this.pos] ?? 0) << 8) | (this.buf[this.pos + 1] ?? 0);
    this.pos += 2;
    return v;
  }

  u24(): number {
    const hi = this.u8();
    return hi * 65536 + this.u16();
  }

  u32(): number {
    this.need(4);
    const v = readU32(this.buf, this.pos);
    this.pos += 4;
    return v;
  }

  i32(): number {
    return this.u32() | 0;
  }

  /** A 64-bit unsigned value as a Number; values above 2^53 lose low bits, never magnitude. */
  u64(): number {
    const high = this.u32();
    return high * 0x100000000 + this.u32();
  }

  /** True when the next `n` bytes are all 0xFF (the "unknown" duration of 14496-12). */
  allOnes(n: number): boolean {
    this.need(n);
    for (let i = 0; i < n; i += 1) if (this.buf[this.pos + i] !== 0xff) return false;
    return true;
  }

  fourcc(): string {
    this.need(4);
    const v = fourcc(this.buf, this.pos);
    this.pos += 4;
    return v;
  }

  /**
   * Checks that `count` records of `size` bytes fit in what is left, before any loop
   * over them runs: a declared count never drives work beyond the real payload.
   */
  needRecords(count: number, size: number, what: string): void {
    if (count * size > this.remaining) {
      throw invalid(
        `box ${this.where} declares ${count} ${what} but holds room for ${Math.floor(this.remaining / size)}`,
      );
    }
  }
}
