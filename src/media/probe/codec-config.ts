// Decoder configuration records of H.264 (`avcC`, ISO/IEC 14496-15 §5.3.3) and HEVC
// (`hvcC`, §8.3.3): the parameter sets a decoder needs before the first frame (issue 9).
// A record without them, or with one that does not parse, makes ffmpeg refuse to open
// the decoder; such a video would never get a thumbnail, so it is not `ready`.
//
// `avc3`/`hev1` entries may carry their parameter sets in the stream instead (§5.4.2,
// §8.4.1), so an empty record is accepted there; any set that is present must parse.
import { invalid } from './box.ts';
import { ParamSetError } from './bits.ts';
import { h264Pps, h264Sps } from './sps.ts';
import type { H264Pps, H264Sps, PictureSize } from './sps.ts';
import { hevcPps, hevcSps, hevcVps } from './hevc-sps.ts';
import type { HevcPps } from './hevc-sps.ts';
import type { H264Params } from './h264-slice.ts';
import type { HevcParams } from './hevc-slice.ts';

/** The record's parameter sets by id, which the first slice header must name. */
export type SliceParams = { codec: 'h264'; sets: H264Params } | { codec: 'hevc'; sets: HevcParams };

export interface CodecConfig {
  /** Bytes of the length prefix before each NAL unit in the samples. */
  lengthSize: number;
  /** Picture size of the first SPS, null when the record holds none (in-band sets). */
  size: PictureSize | null;
  params: SliceParams;
}

class RecordReader {
  pos = 0;
  constructor(
    readonly bytes: Uint8Array,
    private readonly name: string,
  ) {}

  u8(): number {
    const v = this.bytes[this.pos];
    if (v === undefined) throw new ParamSetError(`${this.name} is truncated`);
    this.pos += 1;
    return v;
  }

  u16(): number {
    return this.u8() * 256 + this.u8();
  }

  nal(): Uint8Array {
    const length = this.u16();
    if (this.pos + length > this.bytes.length) {
      throw new ParamSetError(`${this.name} is truncated inside a ${length}-byte parameter set`);
    }
    this.pos += length;
    return this.bytes.subarray(this.pos - length, this.pos);
  }
}

function lengthSize(byte: number, name: string): number {
  const size = (byte & 3) + 1;
  if (size === 3) throw new ParamSetError(`${name} declares a NAL length size of 3 bytes`);
  return size;
}

/** Runs `parse`, turning a parameter-set failure into the track's probe error. */
function guarded<T>(where: string, what: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ParamSetError) {
      throw invalid(`${where}: ${what ? `${what} ` : ''}${error.message}`);
    }
    throw error;
  }
}

export function checkAvcConfig(record: Uint8Array, inBand: boolean, where: string): CodecConfig {
  const r = new RecordReader(record, 'avcC');
  return guarded(where, '', () => {
    const version = r.u8();
    if (version !== 1) throw new ParamSetError(`avcC has version ${version}, not 1`);
    r.pos = 4;
    const nalLength = lengthSize(r.u8(), 'avcC');
    const spsCount = r.u8() & 0x1f;
    const spsById = new Map<number, H264Sps>();
    const ppsById = new Map<number, H264Pps>();
    let size: PictureSize | null = null;
    for (let i = 0; i < spsCount; i += 1) {
      const nal = r.nal();
      const sps = guarded(where, 'avcC SPS', () => {
        if (((nal[0] ?? 0) & 0x1f) !== 7) {
          throw new ParamSetError(`is a NAL unit of type ${(nal[0] ?? 0) & 0x1f}`);
        }
        return h264Sps(nal);
      });
      spsById.set(sps.id, sps);
      size ??= { width: sps.width, height: sps.height };
    }
    const ppsCount = r.u8();
    for (let i = 0; i < ppsCount; i += 1) {
      const nal = r.nal();
      const pps = guarded(where, 'avcC PPS', () => {
        if (((nal[0] ?? 0) & 0x1f) !== 8) {
          throw new ParamSetError(`is a NAL unit of type ${(nal[0] ?? 0) & 0x1f}`);
        }
        return h264Pps(nal, spsById);
      });
      ppsById.set(pps.id, pps);
    }
    if (!inBand && spsCount === 0) throw new ParamSetError('avcC has no SPS');
    if (!inBand && ppsCount === 0) throw new ParamSetError('avcC has no PPS');
    return {
      lengthSize: nalLength,
      size,
      params: { codec: 'h264', sets: { sps: spsById, pps: ppsById } },
    };
  });
}

const VPS = 32;
const SPS = 33;
const PPS = 34;

export function checkHevcConfig(record: Uint8Array, inBand: boolean, where: string): CodecConfig {
  const r = new RecordReader(record, 'hvcC');
  return guarded(where, '', () => {
    r.pos = 21;
    const nalLength = lengthSize(r.u8(), 'hvcC');
    const arrays = r.u8();
    const vpsIds = new Set<number>();
    const spsIds = new Set<number>();
    const ppsById = new Map<number, HevcPps>();
    let size: PictureSize | null = null;
    for (let a = 0; a < arrays; a += 1) {
      r.u8(); // array_completeness and the array's NAL type; each unit's own header decides
      const count = r.u16();
      for (let i = 0; i < count; i += 1) {
        const nal = r.nal();
        const type = ((nal[0] ?? 0) >> 1) & 0x3f;
        if (type === VPS) vpsIds.add(guarded(where, 'hvcC VPS', () => hevcVps(nal)));
        if (type === SPS) {
          const sps = guarded(where, 'hvcC SPS', () => hevcSps(nal, vpsIds));
          spsIds.add(sps.id);
          size ??= { width: sps.width, height: sps.height };
        }
        if (type === PPS) {
          const pps = guarded(where, 'hvcC PPS', () => hevcPps(nal, spsIds));
          ppsById.set(pps.id, pps);
        }
      }
    }
    if (!inBand && vpsIds.size === 0) throw new ParamSetError('hvcC has no VPS');
    if (!inBand && spsIds.size === 0) throw new ParamSetError('hvcC has no SPS');
    if (!inBand && ppsById.size === 0) throw new ParamSetError('hvcC has no PPS');
    return {
      lengthSize: nalLength,
      size,
      params: { codec: 'hevc', sets: { sps: spsIds, pps: ppsById } },
    };
  });
}
