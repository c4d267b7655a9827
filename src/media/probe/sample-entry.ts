// Sample descriptions (`stsd`) of one track: the codec, the coded size and, for H.264
// and HEVC, the decoder configuration record, which must hold parameter sets a decoder
// accepts (codec-config.ts, issue 9).
import { Reader, childrenOf, decodeHeader, invalid, label, parseBoxes, ProbeError } from './box.ts';
import type { Box, TreeBudget } from './box.ts';
import { checkAvcConfig, checkHevcConfig } from './codec-config.ts';
import type { CodecConfig, SliceParams } from './codec-config.ts';
import type { PictureSize } from './sps.ts';

export type TrackKind = 'video' | 'audio' | 'other';

export interface EntryContext {
  buf: Uint8Array;
  budget: TreeBudget;
}

function fullBox(r: Reader): void {
  r.skip(4);
}

export interface SampleEntry {
  fourcc: string;
  codec: string;
  encrypted: boolean;
  width: number;
  height: number;
  sps: PictureSize | null;
  /** NAL length prefix size of H.264/HEVC samples, 0 for other codecs. */
  lengthSize: number;
  /** Parameter sets of the decoder configuration, null for other codecs. */
  params: SliceParams | null;
}

/** Bytes between a sample entry header and its child boxes (14496-12 §12.1.3, §12.2.3). */
const VISUAL_ENTRY_FIELDS = 78;
const AUDIO_ENTRY_FIELDS = 28;

export function readSampleDescription(
  stsd: Box,
  kind: TrackKind,
  ctx: EntryContext,
  where: string,
): { entry: SampleEntry; count: number } {
  const { buf } = ctx;
  const r = Reader.of(buf, stsd);
  fullBox(r);
  const entries = r.u32();
  if (entries === 0) throw invalid(`${where} has no sample description`);
  r.needRecords(entries, 8, 'sample entries');
  let first: SampleEntry | undefined;
  for (let i = 0; i < entries; i += 1) {
    const header = decodeHeader(buf, r.pos, r.remaining, "'stsd'");
    if (header.size === null) throw invalid("a sample entry in 'stsd' has size 0");
    const entryBox: Box = {
      type: header.type,
      start: r.pos,
      payloadStart: r.pos + header.headerSize,
      end: r.pos + header.size,
      children: null,
    };
    const entry = readSampleEntry(entryBox, kind, ctx, where);
    if (first && entry.codec !== first.codec) {
      throw invalid(
        `${where} mixes sample entries ${label(first.fourcc)} and ${label(entry.fourcc)}`,
      );
    }
    first ??= entry;
    r.pos = entryBox.end;
  }
  // entries >= 1, so the loop assigned `first`.
  return { entry: first as SampleEntry, count: entries };
}

function readSampleEntry(box: Box, kind: TrackKind, ctx: EntryContext, where: string): SampleEntry {
  const { buf } = ctx;
  const r = Reader.of(buf, box);
  const fourcc = box.type;
  const plain = {
    fourcc,
    codec: fourcc.trim(),
    encrypted: false,
    width: 0,
    height: 0,
    sps: null,
    lengthSize: 0,
    params: null,
  };
  if (kind === 'video') {
    r.skip(24);
    const width = r.u16();
    const height = r.u16();
    r.skip(VISUAL_ENTRY_FIELDS - 28);
    const children = parseBoxes(buf, r.pos, box.end, 8, fourcc, ctx.budget);
    checkPixelAspect(buf, children, where);
    const original = fourcc === 'encv' ? originalFormat(buf, children) : fourcc;
    const codec = videoCodec(original);
    const config = decoderConfig(buf, children, codec, original, fourcc === 'encv', where);
    return {
      fourcc,
      codec,
      encrypted: fourcc === 'encv',
      width,
      height,
      sps: config?.size ?? null,
      lengthSize: config?.lengthSize ?? 0,
      params: config?.params ?? null,
    };
  }
  if (kind === 'audio') {
    r.skip(8);
    const version = r.u16();
    r.skip(AUDIO_ENTRY_FIELDS - 10);
    // QuickTime sound description versions 1 and 2 add fields before the children.
    if (version === 1) r.skip(16);
    else if (version === 2) r.skip(36);
    const children = parseBoxes(buf, r.pos, box.end, 8, fourcc, ctx.budget);
    const original = fourcc === 'enca' ? originalFormat(buf, children) : fourcc;
    return { ...plain, codec: audioCodec(original, buf, children), encrypted: fourcc === 'enca' };
  }
  return plain;
}

/**
 * `pasp` (ISO/IEC 14496-12 §12.1.4): ffmpeg reads its spacings as signed and takes them
 * as the stream's sample aspect ratio; a negative ratio makes its scaler refuse every
 * frame, so no thumbnail. A zero spacing means "unknown" and is ignored, as ffmpeg does.
 */
function checkPixelAspect(buf: Uint8Array, children: Box[], where: string): void {
  const pasp = children.find((b) => b.type === 'pasp');
  if (!pasp || pasp.end - pasp.payloadStart < 8) return;
  const r = Reader.of(buf, pasp);
  const h = r.i32();
  const v = r.i32();
  if (h !== 0 && v !== 0 && h < 0 !== v < 0) {
    throw invalid(`${where} has a negative pixel aspect ratio ${h}:${v} in 'pasp'`);
  }
}

/**
 * The checked `avcC`/`hvcC` of an H.264/HEVC entry; null for other codecs. Encrypted
 * entries are refused by the rules with their own message, so their record is read
 * only for the size, and a broken one is not the reason given.
 */
function decoderConfig(
  buf: Uint8Array,
  children: Box[],
  codec: string,
  original: string,
  encrypted: boolean,
  where: string,
): CodecConfig | null {
  if (codec !== 'h264' && codec !== 'hevc') return null;
  const type = codec === 'h264' ? 'avcC' : 'hvcC';
  const box = children.find((b) => b.type === type);
  if (!box) {
    if (encrypted) return null;
    throw invalid(`${where} has no '${type}' (decoder configuration) box`);
  }
  const record = buf.subarray(box.payloadStart, box.end);
  const inBand = original === 'avc3' || original === 'hev1';
  const check = () =>
    codec === 'h264'
      ? checkAvcConfig(record, inBand, where)
      : checkHevcConfig(record, inBand, where);
  if (!encrypted) return check();
  try {
    return check();
  } catch (error) {
    if (error instanceof ProbeError) return null;
    throw error;
  }
}

/** `sinf/frma` names the sample entry type an `encv`/`enca` entry replaces. */
function originalFormat(buf: Uint8Array, children: Box[]): string {
  const frma = children.find((b) => b.type === 'sinf')?.children?.find((b) => b.type === 'frma');
  if (!frma) return 'encrypted';
  return Reader.of(buf, frma).fourcc();
}

export function videoCodec(fourcc: string): string {
  if (fourcc === 'avc1' || fourcc === 'avc3') return 'h264';
  if (fourcc === 'hvc1' || fourcc === 'hev1') return 'hevc';
  return fourcc.trim();
}

const AUDIO_FOURCCS: Record<string, string> = {
  Opus: 'opus',
  '.mp3': 'mp3',
  'ac-3': 'ac3',
  'ec-3': 'eac3',
  fLaC: 'flac',
  alac: 'alac',
};

function audioCodec(fourcc: string, buf: Uint8Array, children: Box[]): string {
  if (fourcc !== 'mp4a') return AUDIO_FOURCCS[fourcc] ?? fourcc.trim();
  // ISO puts `esds` in the entry; QuickTime puts it inside a `wave` atom.
  const esds =
    children.find((b) => b.type === 'esds') ??
    childrenOf(
      children.find((b) => b.type === 'wave'),
      'esds',
    )[0];
  if (!esds) return 'mp4a';
  const oti = objectTypeIndication(Reader.of(buf, esds));
  if (oti === null) return 'mp4a';
  return OBJECT_TYPES[oti] ?? `mp4a.${oti.toString(16).padStart(2, '0')}`;
}

/** ISO/IEC 14496-1 objectTypeIndication values (MP4RA registry). */
const OBJECT_TYPES: Record<number, string> = {
  0x40: 'aac',
  0x66: 'aac',
  0x67: 'aac',
  0x68: 'aac',
  0x69: 'mp3',
  0x6b: 'mp3',
  0xa5: 'ac3',
  0xa6: 'eac3',
  0xad: 'opus',
  0xdd: 'vorbis',
};

/** Finds DecoderConfigDescriptor (tag 4) directly or inside ES_Descriptor (tag 3). */
function objectTypeIndication(r: Reader): number | null {
  fullBox(r);
  // Each step consumes at least a tag byte, so this loop ends with the box.
  while (r.remaining >= 2) {
    const tag = r.u8();
    const length = descriptorLength(r);
    const end = Math.min(r.end, r.pos + length);
    if (tag === 4) return r.u8();
    if (tag === 3) {
      r.skip(2); // ES_ID
      const flags = r.u8();
      if (flags & 0x80) r.skip(2);
      if (flags & 0x40) r.skip(r.u8());
      if (flags & 0x20) r.skip(2);
      continue;
    }
    r.pos = end;
  }
  return null;
}

/** Expandable size: up to four bytes of 7 bits, high bit set while more follow. */
function descriptorLength(r: Reader): number {
  let length = 0;
  for (let i = 0; i < 4; i += 1) {
    const b = r.u8();
    length = length * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) break;
  }
  return length;
}
