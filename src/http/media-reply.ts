// Answers of the service's /v2/media/... routes. With object storage they redirect to a
// fresh presigned GET, so URLs handed out before keep working; on local disk they stream,
// whole or one byte range (RFC 9110 section 14), which phones' video players ask for.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../errors.ts';
import type { ByteRange } from '../media/blob-store.ts';
import type { MediaAnswer } from '../media/media-urls.ts';

export const MEDIA_RESPONSES = {
  206: Type.Unsafe<unknown>({
    description:
      'On local storage, for a request with one byte range (`Range: bytes=…`): those bytes, ' +
      'with Content-Range. Several ranges are answered whole (200).',
  }),
  302: Type.Unsafe<unknown>({
    description:
      'With object storage: a redirect (Location) to a short-lived URL of the bucket serving the bytes',
  }),
};

/** One range-spec of a `bytes` Range header: an int-range, or a suffix-range (first null). */
interface RangeSpec {
  first: number | null;
  last: number | null;
}

/** `first-pos "-" [ last-pos ]` or `"-" suffix-length` (RFC 9110 section 14.1.1), digits only. */
const RANGE_SPEC = /^(\d*)-(\d*)$/;

/**
 * The range-specs of a Range header, or null when the service ignores the header: another
 * unit than bytes (14.2: a server MUST ignore a unit it does not understand) or a header
 * that is not a valid ranges-specifier (14.2: a server MAY ignore it), such as `bytes=abc`
 * or an int-range whose last-pos is below its first-pos (`bytes=5-1`).
 */
function rangeSpecs(header: string): RangeSpec[] | null {
  const eq = header.indexOf('=');
  // Range units are case-insensitive (14.1).
  if (eq === -1 || header.slice(0, eq).trim().toLowerCase() !== 'bytes') return null;
  const specs: RangeSpec[] = [];
  for (const item of header.slice(eq + 1).split(',')) {
    const text = item.trim();
    // A list may hold empty elements, which count for nothing (5.6.1).
    if (text === '') continue;
    const m = RANGE_SPEC.exec(text);
    if (!m || (m[1] === '' && m[2] === '')) return null;
    const first = m[1] === '' ? null : Number(m[1]);
    const last = m[2] === '' ? null : Number(m[2]);
    if (!Number.isSafeInteger(first ?? 0) || !Number.isSafeInteger(last ?? 0)) return null;
    if (first !== null && last !== null && last < first) return null;
    specs.push({ first, last });
  }
  return specs.length > 0 ? specs : null;
}

/**
 * The one range a Range header asks for of a `size`-byte file (RFC 9110 section 14), 'whole'
 * when the file is sent whole (200) or 'unsatisfiable' (416).
 * - Satisfiable are an int-range that starts before the end and a suffix-range of at least
 *   one byte (14.1.3); a last-pos past the end, or a suffix longer than the file, stops at
 *   the end (14.1.2): `bytes=-9038` of an 8,938-byte file is all of it.
 * - A satisfiable request is answered 206 with the range (14.2: SHOULD), a range of every
 *   byte included, so a player asking for one always gets Content-Range back.
 * - Several satisfiable ranges are merged where they overlap or touch; ranges still apart
 *   are answered whole (the service sends no multipart/byteranges; 14.2 allows ignoring).
 * - None satisfiable: 416, its Content-Range naming the size alone (15.5.17).
 * - Ignored, answered whole: no header, an If-Range (the service hands out no validators
 *   it could match, 13.1.5), an empty file (no range of it can be written), another unit
 *   or an invalid header.
 */
export function requestedRange(
  header: string | undefined,
  hasIfRange: boolean,
  size: number,
): ByteRange | 'whole' | 'unsatisfiable' {
  if (!header || hasIfRange || size === 0) return 'whole';
  const specs = rangeSpecs(header);
  if (!specs) return 'whole';
  const ranges: ByteRange[] = [];
  for (const { first, last } of specs) {
    if (first === null) {
      // A suffix-range: the last `last` bytes, all of them when the file is shorter.
      if (last !== null && last > 0) {
        ranges.push({ start: Math.max(size - last, 0), end: size - 1 });
      }
    } else if (first < size) {
      ranges.push({ start: first, end: last === null ? size - 1 : Math.min(last, size - 1) });
    }
  }
  if (ranges.length === 0) return 'unsatisfiable';
  ranges.sort((a, b) => a.start - b.start);
  const merged = { ...ranges[0]! };
  for (const r of ranges.slice(1)) {
    if (r.start > merged.end + 1) return 'whole';
    merged.end = Math.max(merged.end, r.end);
  }
  return merged;
}

export async function sendMedia(req: FastifyRequest, reply: FastifyReply, answer: MediaAnswer) {
  if ('redirect' in answer) {
    return reply.header('cache-control', 'no-store').redirect(answer.redirect, 302);
  }
  const range = requestedRange(
    req.headers.range,
    req.headers['if-range'] !== undefined,
    answer.size,
  );
  if (range === 'unsatisfiable') {
    throw new ApiError(
      'range_not_satisfiable',
      `The Range header asks for bytes past the end of this ${answer.size}-byte file`,
      { headers: { 'content-range': `bytes */${answer.size}` } },
    );
  }
  reply
    .header('content-type', answer.contentType)
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'private, max-age=300')
    .header('x-content-type-options', 'nosniff');
  if (range === 'whole') {
    return reply.header('content-length', String(answer.size)).send(await answer.read());
  }
  return reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${answer.size}`)
    .header('content-length', String(range.end - range.start + 1))
    .send(await answer.read(range));
}
