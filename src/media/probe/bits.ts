// Bit-level reading of H.264 / HEVC parameter sets (RBSP): Exp-Golomb codes and
// emulation-prevention removal. Every read is bounded by the NAL unit's bytes.

/** A parameter set that does not parse or holds a value out of range. */
export class ParamSetError extends Error {}

export class BitReader {
  private bit = 0;
  constructor(private readonly bytes: Uint8Array) {}

  /** Bits read so far, the NAL header included. */
  get position(): number {
    return this.bit;
  }

  u(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i += 1) {
      const byte = this.bytes[this.bit >> 3];
      if (byte === undefined) throw new ParamSetError('ends early');
      v = v * 2 + ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit += 1;
    }
    return v;
  }

  skip(n: number): void {
    this.bit += n;
    if (this.bit > this.bytes.length * 8) throw new ParamSetError('ends early');
  }

  /** Exp-Golomb ue(v); more than 31 leading zeros cannot be a valid value here. */
  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) {
      zeros += 1;
      if (zeros > 31) throw new ParamSetError('holds an Exp-Golomb code longer than 32 bits');
    }
    return 2 ** zeros - 1 + this.u(zeros);
  }

  se(): number {
    const k = this.ue();
    return k % 2 === 1 ? (k + 1) / 2 : -(k / 2);
  }
}

/** Removes emulation-prevention bytes (00 00 03 → 00 00). */
export function unescapeRbsp(nal: Uint8Array): Uint8Array {
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

/**
 * Bits of an unescaped NAL unit before its rbsp_stop_one_bit, trailing zero bytes
 * dropped: what ffmpeg measures a parameter set against ("Overread SPS/VUI").
 */
export function payloadBits(rbsp: Uint8Array): number {
  let size = rbsp.length;
  while (size > 0 && rbsp[size - 1] === 0) size -= 1;
  const last = rbsp[size - 1] ?? 0;
  let stop = 0;
  while (last !== 0 && ((last >> stop) & 1) === 0) stop += 1;
  return size * 8 - (last !== 0 ? stop + 1 : 0);
}
