// Picture size from the first sequence parameter set stored in `avcC` (H.264,
// ITU-T H.264 §7.3.2.1.1) or `hvcC` (HEVC, ITU-T H.265 §7.3.2.2). The size written in
// the container can disagree with the bitstream; the rules check both. Any parse
// problem yields null: the SPS size is a cross-check, not a requirement.

export interface PictureSize {
  width: number;
  height: number;
}

class BitReaderError extends Error {}

class BitReader {
  private bit = 0;
  constructor(private readonly bytes: Uint8Array) {}

  u(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i += 1) {
      const byte = this.bytes[this.bit >> 3];
      if (byte === undefined) throw new BitReaderError('end of SPS');
      v = v * 2 + ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit += 1;
    }
    return v;
  }

  skip(n: number): void {
    this.bit += n;
    if (this.bit > this.bytes.length * 8) throw new BitReaderError('end of SPS');
  }

  /** Exp-Golomb ue(v); more than 31 leading zeros cannot be a valid value here. */
  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) {
      zeros += 1;
      if (zeros > 31) throw new BitReaderError('ue(v) too long');
    }
    return 2 ** zeros - 1 + this.u(zeros);
  }

  se(): number {
    const k = this.ue();
    return k % 2 === 1 ? (k + 1) / 2 : -(k / 2);
  }
}

/** Removes emulation-prevention bytes (00 00 03 → 00 00). */
function unescapeRbsp(nal: Uint8Array): Uint8Array {
  const out = new Uint8Array(nal.length);
  let n = 0;
  let zeros = 0;
  for (const byte of nal) {
    if (zeros >= 2 && byte === 3) {
      zeros = 0;
      continue;
    }
    zeros = byte === 0 ? zeros + 1 : 0;
    out[n] = byte;
    n += 1;
  }
  return out.subarray(0, n);
}

const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

function h264Sps(rbsp: Uint8Array): PictureSize {
  const r = new BitReader(rbsp);
  r.skip(8); // NAL header
  const profile = r.u(8);
  r.skip(16); // constraint flags, level
  r.ue(); // seq_parameter_set_id
  let chroma = 1;
  let separatePlanes = 0;
  if (HIGH_PROFILES.has(profile)) {
    chroma = r.ue();
    if (chroma === 3) separatePlanes = r.u(1);
    r.ue(); // bit_depth_luma_minus8
    r.ue(); // bit_depth_chroma_minus8
    r.skip(1); // qpprime_y_zero_transform_bypass_flag
    if (r.u(1) === 1) {
      const lists = chroma === 3 ? 12 : 8;
      for (let i = 0; i < lists; i += 1) {
        if (r.u(1) === 1) skipScalingList(r, i < 6 ? 16 : 64);
      }
    }
  }
  r.ue(); // log2_max_frame_num_minus4
  const pocType = r.ue();
  if (pocType === 0) {
    r.ue();
  } else if (pocType === 1) {
    r.skip(1);
    r.se();
    r.se();
    const cycle = r.ue();
    if (cycle > 255) throw new BitReaderError('poc cycle too long');
    for (let i = 0; i < cycle; i += 1) r.se();
  }
  r.ue(); // max_num_ref_frames
  r.skip(1); // gaps_in_frame_num_value_allowed_flag
  const widthMbs = r.ue() + 1;
  const heightUnits = r.ue() + 1;
  const frameMbsOnly = r.u(1);
  if (frameMbsOnly === 0) r.skip(1);
  r.skip(1); // direct_8x8_inference_flag
  let crop = [0, 0, 0, 0];
  if (r.u(1) === 1) crop = [r.ue(), r.ue(), r.ue(), r.ue()];
  const arrayType = separatePlanes === 1 ? 0 : chroma;
  const cropX = arrayType === 1 || arrayType === 2 ? 2 : 1;
  const cropY = (arrayType === 1 ? 2 : 1) * (2 - frameMbsOnly);
  const [left = 0, right = 0, top = 0, bottom = 0] = crop;
  return {
    width: widthMbs * 16 - cropX * (left + right),
    height: (2 - frameMbsOnly) * heightUnits * 16 - cropY * (top + bottom),
  };
}

function skipScalingList(r: BitReader, size: number): void {
  let last = 8;
  let next = 8;
  for (let j = 0; j < size; j += 1) {
    if (next !== 0) next = (last + r.se() + 256) % 256;
    last = next === 0 ? last : next;
  }
}

function hevcSps(rbsp: Uint8Array): PictureSize {
  const r = new BitReader(rbsp);
  r.skip(16); // NAL header
  r.skip(4); // sps_video_parameter_set_id
  const subLayers = r.u(3);
  r.skip(1);
  // profile_tier_level(1, subLayers)
  r.skip(88 + 8);
  const profilePresent: number[] = [];
  const levelPresent: number[] = [];
  for (let i = 0; i < subLayers; i += 1) {
    profilePresent.push(r.u(1));
    levelPresent.push(r.u(1));
  }
  if (subLayers > 0) r.skip(2 * (8 - subLayers));
  for (let i = 0; i < subLayers; i += 1) {
    if (profilePresent[i] === 1) r.skip(88);
    if (levelPresent[i] === 1) r.skip(8);
  }
  r.ue(); // sps_seq_parameter_set_id
  const chroma = r.ue();
  let separatePlanes = 0;
  if (chroma === 3) separatePlanes = r.u(1);
  const width = r.ue();
  const height = r.ue();
  let crop = [0, 0, 0, 0];
  if (r.u(1) === 1) crop = [r.ue(), r.ue(), r.ue(), r.ue()];
  const arrayType = separatePlanes === 1 ? 0 : chroma;
  const subW = arrayType === 1 || arrayType === 2 ? 2 : 1;
  const subH = arrayType === 1 ? 2 : 1;
  const [left = 0, right = 0, top = 0, bottom = 0] = crop;
  return { width: width - subW * (left + right), height: height - subH * (top + bottom) };
}

function plausible(size: PictureSize): PictureSize | null {
  const ok = (v: number) => Number.isInteger(v) && v > 0 && v <= 1_048_576;
  return ok(size.width) && ok(size.height) ? size : null;
}

function guarded(parse: () => PictureSize): PictureSize | null {
  try {
    return plausible(parse());
  } catch (error) {
    if (error instanceof BitReaderError) return null;
    throw error;
  }
}

/** Size from an `avcC` payload (AVCDecoderConfigurationRecord). */
export function avcConfigSize(record: Uint8Array): PictureSize | null {
  if (record.length < 8 || record[0] !== 1) return null;
  const spsCount = (record[5] ?? 0) & 0x1f;
  if (spsCount === 0) return null;
  const length = ((record[6] ?? 0) << 8) | (record[7] ?? 0);
  if (length < 4 || 8 + length > record.length) return null;
  const nal = record.subarray(8, 8 + length);
  if (((nal[0] ?? 0) & 0x1f) !== 7) return null;
  return guarded(() => h264Sps(unescapeRbsp(nal)));
}

/** Size from an `hvcC` payload (HEVCDecoderConfigurationRecord), first SPS (type 33). */
export function hevcConfigSize(record: Uint8Array): PictureSize | null {
  if (record.length < 23) return null;
  const arrays = record[22] ?? 0;
  let pos = 23;
  for (let a = 0; a < arrays; a += 1) {
    if (pos + 3 > record.length) return null;
    const nalType = (record[pos] ?? 0) & 0x3f;
    const count = ((record[pos + 1] ?? 0) << 8) | (record[pos + 2] ?? 0);
    pos += 3;
    for (let i = 0; i < count; i += 1) {
      if (pos + 2 > record.length) return null;
      const length = ((record[pos] ?? 0) << 8) | (record[pos + 1] ?? 0);
      pos += 2;
      if (pos + length > record.length) return null;
      if (nalType === 33 && length >= 4) {
        const nal = record.subarray(pos, pos + length);
        return guarded(() => hevcSps(unescapeRbsp(nal)));
      }
      pos += length;
    }
  }
  return null;
}
