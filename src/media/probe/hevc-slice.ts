// The first slice segment header of an HEVC video's first picture (ITU-T H.265
// §7.3.6.1), read as far as ffmpeg 4.1 refuses it before decoding (hevcdec.c
// hls_slice_header; issue 9). A first slice that does not start its picture, names a
// PPS the stream does not hold, or has an unknown slice type (or an inter type in an
// IRAP picture) makes ffmpeg drop the picture, so the first frame never comes out.
import { BitReader, ParamSetError, unescapeRbsp } from './bits.ts';
import type { HevcPps } from './hevc-sps.ts';

export interface HevcParams {
  sps: Set<number>;
  pps: Map<number, HevcPps>;
}

/** NAL unit types of IRAP pictures (BLA, IDR, CRA and reserved IRAP types). */
const IRAP_FIRST = 16;
const IRAP_LAST = 23;
const SLICE_I = 2;

/** Throws a ParamSetError naming the first field ffmpeg would refuse. */
export function checkHevcSlice(nal: Uint8Array, params: HevcParams): void {
  const r = new BitReader(unescapeRbsp(nal));
  r.skip(1);
  const type = r.u(6);
  r.skip(9); // nuh_layer_id, nuh_temporal_id_plus1
  if (r.u(1) !== 1) {
    throw new ParamSetError('does not start its picture (first_slice_segment_in_pic_flag 0)');
  }
  const irap = type >= IRAP_FIRST && type <= IRAP_LAST;
  if (irap) r.skip(1); // no_output_of_prior_pics_flag
  const ppsId = r.ue();
  const pps = params.pps.get(ppsId);
  if (!pps) throw new ParamSetError(`refers to PPS ${ppsId}, which the stream does not hold`);
  if (!params.sps.has(pps.spsId)) {
    throw new ParamSetError(`refers to SPS ${pps.spsId}, which the stream does not hold`);
  }
  r.skip(pps.extraSliceHeaderBits); // slice_reserved_flag[i]
  const sliceType = r.ue();
  if (sliceType > SLICE_I) throw new ParamSetError(`has unknown slice_type ${sliceType}`);
  if (irap && sliceType !== SLICE_I) {
    throw new ParamSetError('is an inter slice in an IRAP picture');
  }
}
