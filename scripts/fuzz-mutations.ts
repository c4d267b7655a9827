// The mutation model shared by the long fuzz run (scripts/fuzz-probe.ts) and the short
// fast-check properties in npm test (test/media/probe-fuzz*.test.ts): seeds from the
// committed fixtures, and mutations as plain data so fast-check can generate and shrink
// them. Besides bytes, sizes and truncations, `entry` corrupts one entry of a sample
// table (stts, stsc, stsz, stco, stss, ...) or one byte of an avcC/hvcC record: the
// damage that left undecodable files marked ready (issue 9).
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENTRY_FIELDS } from '../src/media/probe/demuxer-limits.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
export const FIXTURES = join(ROOT, 'test/fixtures/media');
export const REGRESSIONS = join(FIXTURES, 'regressions');

export interface Seed {
  name: string;
  kind: 'video' | 'image';
  bytes: Buffer;
  /** Box headers (ISO-BMFF seeds) for size, count, nesting and entry mutations. */
  boxes: BoxAt[];
}

const VIDEO_EXT = /\.(mp4|mov)$/;
const IMAGE_EXT = /\.(png|jpg|webp|heic)$/;
const SEED_MAX_BYTES = 40_000;

/** Valid and near-valid fixtures small enough to mutate quickly. */
export function loadSeeds(): Seed[] {
  const seeds: Seed[] = [];
  for (const name of readdirSync(FIXTURES).sort()) {
    const kind = VIDEO_EXT.test(name) ? 'video' : IMAGE_EXT.test(name) ? 'image' : null;
    if (!kind || name.startsWith('text')) continue;
    const bytes = readFileSync(join(FIXTURES, name));
    if (bytes.length > SEED_MAX_BYTES) continue;
    seeds.push({ name, kind, bytes, boxes: boxOffsets(bytes) });
  }
  return seeds;
}

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
  'iprp',
  'ipco',
  'sinf',
  'schi',
]);

/** Boxes whose entries `entry` mutations target, with where the entries start. */
const TABLES: Record<string, number> = {
  stts: 8,
  ctts: 8,
  stsc: 8,
  stsz: 12,
  stz2: 12,
  stco: 8,
  co64: 8,
  stss: 8,
  elst: 8,
  trun: 8,
  tfhd: 4,
  tfdt: 4,
  avcC: 0,
  hvcC: 0,
};

export interface BoxAt {
  at: number;
  type: string;
  /** Header offsets of the enclosing boxes, outermost first. */
  ancestors: number[];
}

/** Box headers found by a tolerant walk of the known containers. */
export function boxOffsets(bytes: Buffer): BoxAt[] {
  const out: BoxAt[] = [];
  const walk = (start: number, end: number, ancestors: number[]): void => {
    let pos = start;
    while (pos + 8 <= end && ancestors.length < 8 && out.length < 4096) {
      const size = bytes.readUInt32BE(pos);
      const type = bytes.toString('latin1', pos + 4, pos + 8);
      if (size < 8 || pos + size > end) return;
      out.push({ at: pos, type, ancestors });
      const inner = [...ancestors, pos];
      const fields = ENTRY_FIELDS[type];
      if (CONTAINERS.has(type)) walk(pos + 8, pos + size, inner);
      else if (type === 'meta') walk(pos + 12, pos + size, inner);
      else if (type === 'stsd') walk(pos + 16, pos + size, inner);
      else if (fields !== undefined) walk(pos + 8 + fields, pos + size, inner);
      pos += size;
    }
  };
  if (bytes.toString('latin1', 4, 8) === 'ftyp' || bytes.toString('latin1', 4, 8) === 'moov') {
    walk(0, bytes.length, []);
  }
  return out;
}

export type Mutation =
  | { op: 'flip'; at: number; bit: number }
  | { op: 'byte'; at: number; value: number }
  | { op: 'size'; box: number; value: number }
  | { op: 'largesize'; box: number; value: bigint }
  | { op: 'count'; box: number; field: number; value: number }
  | { op: 'truncate'; at: number }
  | { op: 'duplicate'; at: number; length: number; to: number }
  | { op: 'remove'; at: number; length: number }
  | { op: 'nest'; box: number; depth: number }
  /**
   * One 32-bit entry of a sample table (one byte of a codec record) set to `value`, or
   * moved by `delta` when it is not 0 (off-by-one tables are the common real damage).
   */
  | { op: 'entry'; box: number; index: number; value: number; delta: number };

/** Interesting 32-bit values for size and count fields. */
export const EDGE_U32 = [
  0, 1, 2, 7, 8, 9, 16, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0x10000,
];
export const EDGE_U64 = [
  0n,
  1n,
  8n,
  15n,
  16n,
  17n,
  1n << 32n,
  1n << 53n,
  (1n << 63n) + 5n,
  (1n << 64n) - 1n,
];
export const EDGE_DELTAS = [0, 1, -1, 2, -2, 8, -8, 1000, -1000];

export function applyMutations(seed: Seed, mutations: readonly Mutation[]): Buffer {
  let bytes: Buffer = Buffer.from(seed.bytes);
  for (const m of mutations) bytes = applyOne(bytes, seed.boxes, m);
  return bytes;
}

function applyOne(input: Buffer, boxes: BoxAt[], m: Mutation): Buffer {
  const bytes = input;
  const len = bytes.length;
  if (len === 0) return bytes;
  const at = (n: number) => n % len;
  const entry = (n: number): BoxAt | undefined => boxes[n % Math.max(1, boxes.length)];
  const box = (n: number) => {
    const offset = boxes.length > 0 ? (entry(n)?.at ?? 0) : at(n);
    return offset + 8 <= len ? offset : -1;
  };
  switch (m.op) {
    case 'flip':
      bytes[at(m.at)] = (bytes[at(m.at)] ?? 0) ^ (1 << (m.bit & 7));
      return bytes;
    case 'byte':
      bytes[at(m.at)] = m.value & 0xff;
      return bytes;
    case 'size': {
      const o = box(m.box);
      if (o >= 0) bytes.writeUInt32BE(m.value >>> 0, o);
      return bytes;
    }
    case 'largesize': {
      const o = box(m.box);
      if (o < 0 || o + 16 > len) return bytes;
      bytes.writeUInt32BE(1, o);
      bytes.writeBigUInt64BE(BigInt.asUintN(64, m.value), o + 8);
      return bytes;
    }
    case 'count': {
      // Full boxes keep their first count or size field 4-12 bytes into the payload.
      const o = box(m.box);
      const field = o + 12 + (m.field % 3) * 4;
      if (o >= 0 && field + 4 <= len) bytes.writeUInt32BE(m.value >>> 0, field);
      return bytes;
    }
    case 'truncate':
      return bytes.subarray(0, at(m.at));
    case 'duplicate': {
      const start = at(m.at);
      const piece = bytes.subarray(start, Math.min(len, start + (m.length % 4096)));
      const to = at(m.to);
      return Buffer.concat([bytes.subarray(0, to), piece, bytes.subarray(to)]);
    }
    case 'remove': {
      const start = at(m.at);
      return Buffer.concat([
        bytes.subarray(0, start),
        bytes.subarray(Math.min(len, start + (m.length % 4096))),
      ]);
    }
    case 'nest':
      return nest(bytes, box(m.box), entry(m.box)?.ancestors ?? [], m.depth);
    case 'entry':
      return mutateEntry(bytes, boxes, m);
  }
}

/** Wraps a box in `depth` containers of its own type: deep nesting with sizes that fit. */
function nest(bytes: Buffer, o: number, ancestors: number[], depth: number): Buffer {
  if (o < 0) return bytes;
  const size = bytes.readUInt32BE(o);
  if (size < 8 || o + size > bytes.length) return bytes;
  const type = bytes.subarray(o + 4, o + 8);
  let inner = Buffer.from(bytes.subarray(o, o + size));
  for (let i = 0; i < depth % 40; i += 1) {
    const header = Buffer.alloc(8);
    header.writeUInt32BE(inner.length + 8 > 0xffffffff ? 0 : inner.length + 8, 0);
    type.copy(header, 4);
    inner = Buffer.concat([header, inner]);
  }
  const out = Buffer.concat([bytes.subarray(0, o), inner, bytes.subarray(o + size)]);
  // Grow the enclosing boxes so the nesting is reached instead of a size error.
  const added = inner.length - size;
  for (const parent of ancestors) {
    if (parent + 4 > out.length) continue;
    const parentSize = out.readUInt32BE(parent);
    if (parentSize >= 8 && parentSize + added <= 0xffffffff)
      out.writeUInt32BE(parentSize + added, parent);
  }
  return out;
}

function mutateEntry(bytes: Buffer, boxes: BoxAt[], m: Extract<Mutation, { op: 'entry' }>): Buffer {
  const tables = boxes.filter((b) => TABLES[b.type] !== undefined);
  const target = tables[m.box % Math.max(1, tables.length)];
  if (!target || target.at + 8 > bytes.length) return bytes;
  const size = Math.min(bytes.readUInt32BE(target.at), bytes.length - target.at);
  const first = target.at + 8 + (TABLES[target.type] ?? 0);
  if (target.type === 'avcC' || target.type === 'hvcC') {
    if (first >= target.at + size) return bytes;
    const i = first + (m.index % (target.at + size - first));
    const old = bytes[i] ?? 0;
    bytes[i] = (m.delta !== 0 ? old + m.delta : m.value) & 0xff;
    return bytes;
  }
  const words = Math.floor((target.at + size - first) / 4);
  if (words <= 0) return bytes;
  const i = first + 4 * (m.index % words);
  const old = bytes.readUInt32BE(i);
  bytes.writeUInt32BE((m.delta !== 0 ? old + m.delta : m.value) >>> 0, i);
  return bytes;
}

/** Deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomMutation(next: () => number): Mutation {
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
  const u32 = () => (next() < 0.7 ? pick(EDGE_U32) : int(0x100000000));
  switch (int(11)) {
    case 0:
      return { op: 'flip', at: int(1 << 30), bit: int(8) };
    case 1:
      return { op: 'byte', at: int(1 << 30), value: pick([0, 0xff, 0x7f, 0x80, int(256)]) };
    case 2:
      return { op: 'size', box: int(4096), value: u32() };
    case 3:
      return { op: 'largesize', box: int(4096), value: pick(EDGE_U64) };
    case 4:
      return { op: 'count', box: int(4096), field: int(3), value: u32() };
    case 5:
      return { op: 'truncate', at: int(1 << 30) };
    case 6:
      return { op: 'duplicate', at: int(1 << 30), length: int(4096), to: int(1 << 30) };
    case 7:
      return { op: 'remove', at: int(1 << 30), length: int(4096) };
    case 8:
      return { op: 'nest', box: int(4096), depth: int(40) };
    default: {
      // Twice as likely as the others: table damage is what the decode check is about.
      const delta = next() < 0.5 ? pick(EDGE_DELTAS) : 0;
      const value = next() < 0.5 ? u32() : int(300);
      return { op: 'entry', box: int(4096), index: int(1 << 20), value, delta };
    }
  }
}

export function describeMutations(mutations: readonly Mutation[]): string {
  return JSON.stringify(mutations, (_key, value: unknown) =>
    typeof value === 'bigint' ? `${value}n` : value,
  );
}
