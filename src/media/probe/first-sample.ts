// The leading samples of an H.264/HEVC track (the first one and the rest of the
// decoder's reordering window, sample-tables.ts LEAD_SAMPLES) split into NAL units as a
// decoder splits them
// (ISO/IEC 14496-15 §5.3.2: each unit behind a 1, 2 or 4 byte length). A length running
// past the sample makes ffmpeg drop the whole packet, so the first frame never decodes
// (issue 9). Only the length prefixes are read, through a small window: a few reads for
// a keyframe of any size, never the media data itself.
import { invalid } from './box.ts';
import type { ByteRange } from './sample-tables.ts';
import { WindowedReader } from './source.ts';
import type { ByteSource } from './source.ts';

/** More NAL units than any real first frame holds (slices of 4K are a few dozen). */
const MAX_UNITS = 4096;

export async function checkFirstSample(
  source: ByteSource,
  sample: ByteRange,
  lengthSize: number,
  where: string,
): Promise<void> {
  const reader = new WindowedReader(source);
  let pos = sample.start;
  let units = 0;
  // ffmpeg's splitter stops when fewer than 4 bytes remain, whatever the prefix size.
  while (sample.end - pos >= 4) {
    units += 1;
    if (units > MAX_UNITS) {
      throw invalid(`${where}: a leading sample holds more than ${MAX_UNITS} NAL units`);
    }
    const prefix = reader.peek(pos, lengthSize) ?? (await reader.read(pos, lengthSize));
    let length = 0;
    for (let i = 0; i < lengthSize; i += 1) length = length * 256 + (prefix[i] ?? 0);
    pos += lengthSize;
    if (length > sample.end - pos) {
      throw invalid(
        `${where}: the NAL unit at byte ${pos - lengthSize} of a leading sample declares ${length} bytes but the sample has ${sample.end - pos} left`,
      );
    }
    pos += length;
  }
}
