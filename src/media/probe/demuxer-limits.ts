// Structural limits of the demuxer that makes thumbnails (ffmpeg 4.1's mov demuxer,
// issue 9), enforced on `moov` so a file it cannot open is never called ready:
//
// - Nesting: the demuxer refuses the whole file ("Atoms too deeply nested") when it
//   would enter an 11th level of atom lists. It descends into more atoms than the probe
//   reads (`udta`, `meta`, `ilst`, `tref`, sample entry children), so the depth is
//   measured here on the raw bytes with the demuxer's container set. Verified against the
//   packaged ffmpeg by nesting `udta`, `edts`, `dinf` and `mdia` until it refuses.
// - Data references (`dref`, 14496-12 §8.7.2): at least one entry, and entries of at
//   least 12 bytes (size, type, version and flags) inside the box; the demuxer refuses
//   the header otherwise.
import { Reader, childrenOf, invalid, path } from './box.ts';
import type { Box } from './box.ts';

/** Deepest atom list the demuxer enters; `moov`'s own children are level 1. */
export const DEMUXER_MAX_LEVEL = 10;
/** Boxes visited before the walk stops descending; real `moov`s hold a few hundred. */
const MAX_VISITED = 100_000;

/** Atoms whose payload the demuxer parses as a list of atoms. */
const LISTS = new Set([
  'moov',
  'trak',
  'mdia',
  'minf',
  'stbl',
  'dinf',
  'edts',
  'udta',
  'mvex',
  'tref',
  'moof',
  'traf',
  'sinf',
  'schi',
  'wave',
  'ilst',
]);

/** Sample entries whose child atoms follow fixed fields (14496-12 §12.1.3, §12.2.3). */
export const ENTRY_FIELDS: Readonly<Record<string, number>> = {
  avc1: 78,
  avc3: 78,
  hvc1: 78,
  hev1: 78,
  encv: 78,
  mp4a: 28,
  enca: 28,
};

function u32(buf: Uint8Array, at: number): number {
  return (
    (buf[at] ?? 0) * 0x1000000 +
    ((buf[at + 1] ?? 0) << 16) +
    ((buf[at + 2] ?? 0) << 8) +
    (buf[at + 3] ?? 0)
  );
}

function type(buf: Uint8Array, at: number): string {
  return String.fromCharCode(buf[at] ?? 0, buf[at + 1] ?? 0, buf[at + 2] ?? 0, buf[at + 3] ?? 0);
}

/** Throws when the atoms in `buf[start, end)` (moov's payload) nest too deep. */
export function checkNesting(buf: Uint8Array, start: number, end: number): void {
  let visited = 0;
  const walk = (from: number, to: number, level: number): void => {
    if (level > DEMUXER_MAX_LEVEL) {
      throw invalid(`atoms are nested deeper than the ${DEMUXER_MAX_LEVEL} levels demuxers accept`);
    }
    let pos = from;
    while (pos + 8 <= to && visited < MAX_VISITED) {
      visited += 1;
      let size = u32(buf, pos);
      let header = 8;
      if (size === 1 && pos + 16 <= to) {
        size = u32(buf, pos + 8) * 0x100000000 + u32(buf, pos + 12);
        header = 16;
      }
      if (size === 0) size = to - pos;
      if (size < header || pos + size > to) return; // the box tree reports size errors
      const name = type(buf, pos + 4);
      const payload = pos + header;
      const boxEnd = pos + size;
      if (LISTS.has(name)) walk(payload, boxEnd, level + 1);
      else if (name === 'meta') walkMeta(payload, boxEnd, level + 1);
      else if (name === 'stsd') walkEntries(payload + 8, boxEnd, level + 1);
      pos = boxEnd;
    }
  };
  // `meta` is a full box in ISO files and a plain list in QuickTime: the list starts
  // at its `hdlr` child either way, which is where the demuxer starts it.
  const walkMeta = (from: number, to: number, level: number): void => {
    if (type(buf, from + 4) === 'hdlr') walk(from, to, level);
    else if (type(buf, from + 8) === 'hdlr') walk(from + 4, to, level);
  };
  const walkEntries = (from: number, to: number, level: number): void => {
    let pos = from;
    while (pos + 8 <= to && visited < MAX_VISITED) {
      visited += 1;
      const size = u32(buf, pos);
      if (size < 8 || pos + size > to) return;
      const fields = ENTRY_FIELDS[type(buf, pos + 4)];
      if (fields !== undefined) {
        let childStart = pos + 8 + fields;
        // QuickTime sound description versions 1 and 2 add fields before the children.
        const version = fields === 28 ? ((buf[pos + 16] ?? 0) << 8) | (buf[pos + 17] ?? 0) : 0;
        if (version === 1) childStart += 16;
        else if (version === 2) childStart += 36;
        walk(childStart, pos + size, level);
      }
      pos += size;
    }
  };
  walk(start, end, 1);
}

/** Throws when a track's data reference box is one the demuxer refuses. */
export function checkDataReferences(buf: Uint8Array, trak: Box, where: string): void {
  for (const dref of childrenOf(path(trak, 'mdia', 'minf', 'dinf'), 'dref')) {
    const r = Reader.of(buf, dref);
    r.skip(4);
    const entries = r.u32();
    if (entries === 0) throw invalid(`${where}: the data reference box 'dref' has no entry`);
    r.needRecords(entries, 12, 'data references');
    for (let i = 1; i <= entries; i += 1) {
      const size = r.u32();
      if (size < 12 || size - 4 > r.remaining) {
        throw invalid(`${where}: data reference ${i} has an invalid size of ${size} bytes`);
      }
      r.skip(size - 4);
    }
  }
}
