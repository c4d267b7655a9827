// Answers of the service's /v2/media/... routes. With object storage they redirect to a
// fresh presigned GET, so URLs handed out before keep working; on local disk they stream.
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { MediaAnswer } from '../media/media-urls.ts';

export const REDIRECT_RESPONSE = {
  302: Type.Unsafe<unknown>({
    description:
      'With object storage: a redirect (Location) to a short-lived URL of the bucket serving the bytes',
  }),
};

export function sendMedia(reply: FastifyReply, answer: MediaAnswer) {
  if ('redirect' in answer) {
    return reply.header('cache-control', 'no-store').redirect(answer.redirect, 302);
  }
  return reply
    .header('content-type', answer.contentType)
    .header('content-length', String(answer.size))
    .header('cache-control', 'private, max-age=300')
    .header('x-content-type-options', 'nosniff')
    .send(answer.stream);
}
