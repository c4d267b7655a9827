// Answers of the service's /v2/media/... routes. With object storage they redirect to a
// fresh presigned GET, so URLs handed out before keep working; on local disk they stream,
// whole or one byte range (RFC 9110 section 14), which phones' video players ask for.
import type { FastifyReply, FastifyRequest } from 'fastify';
import parseRange from 'range-parser';
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

/**
 * The one range a Range header asks for, 'whole' when the file is to be sent whole
 * (no header, another unit, a malformed or multi-range header, an If-Range the service
 * cannot match since it hands out no validators), or 'unsatisfiable'.
 */
export function requestedRange(
  header: string | undefined,
  hasIfRange: boolean,
  size: number,
): ByteRange | 'whole' | 'unsatisfiable' {
  if (!header || hasIfRange || size === 0) return 'whole';
  const ranges = parseRange(size, header, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return 'whole';
  const range: ByteRange = ranges[0]!;
  return range.start === 0 && range.end === size - 1 ? 'whole' : range;
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
