import type { FastifyPluginAsync } from 'fastify';
import type { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth.ts';
import { MEDIA_RESPONSES, sendMedia } from '../../http/media-reply.ts';
import { AUTH_ERRORS, errorResponses, ref } from '../../schemas/common.ts';
import {
  CreateUploadBody,
  CreatedUpload,
  ReceivedBytes,
  SignedQuery,
  Upload,
  UploadIdParams,
} from './uploads.schemas.ts';
import {
  completeUpload,
  createSignedUpload,
  getUpload,
  openUploadMedia,
  receiveBytes,
} from './uploads.service.ts';
import { createRemoteUpload } from './upload-remote.service.ts';

export const uploadSchemas = [Upload];

const MEDIA_ERRORS = ['file_too_large', 'unsupported_media_type', 'invalid_media_specs'] as const;

const binary = (description: string) =>
  Type.Unsafe<unknown>({
    description,
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  });

export function uploadsRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/uploads',
      {
        config: { scopes: ['posts:write'] },
        schema: {
          operationId: 'createUpload',
          tags: ['uploads'],
          summary: 'Create an upload (signed or remote)',
          description:
            'Counts against the daily uploads cap. Remote uploads are fetched and validated before ' +
            'the response; they answer `status: ready` or the validation error.',
          body: CreateUploadBody,
          response: {
            201: CreatedUpload,
            ...errorResponses([
              ...AUTH_ERRORS,
              'invalid_request',
              'request_too_large',
              'quota_exceeded',
              ...MEDIA_ERRORS,
              // A remote source that cannot be fetched (unreachable, timeout, HTTP error).
              'source_fetch_failed',
            ]),
          },
        },
      },
      async (req, reply) => {
        const principal = principalOf(req);
        const created = req.body.sourceUrl
          ? await createRemoteUpload(ctx, principal, req.body)
          : await createSignedUpload(ctx, principal, req.body);
        return reply.status(201).send(created);
      },
    );

    // The byte upload carries its own signature instead of a key, and takes the
    // raw body of the declared content type, streamed to storage unparsed.
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
      raw.withTypeProvider<TypeBoxTypeProvider>().put(
        '/uploads/:uploadId/bytes',
        {
          config: { public: true },
          schema: {
            operationId: 'uploadBytes',
            tags: ['uploads'],
            summary: 'Send the file bytes to a signed upload URL',
            description:
              'The `uploadUrl` from POST /v2/uploads, called with no API key. `Content-Type` must ' +
              'equal the declared `contentType` and the body must be exactly `sizeBytes` long; ' +
              'anything else stores nothing. The first complete body becomes the upload’s content: ' +
              'the same bytes again are accepted as a retry, other bytes are refused with ' +
              '`upload_content_conflict`, and bytes arriving after `complete` with ' +
              '`upload_already_completed`. The URL expires after an hour.',
            security: [],
            params: UploadIdParams,
            querystring: SignedQuery,
            response: {
              200: ReceivedBytes,
              ...errorResponses([
                'invalid_request',
                'invalid_signature',
                'upload_already_completed',
                'upload_content_conflict',
                'file_too_large',
                'unsupported_media_type',
                'internal_error',
              ]),
            },
          },
        },
        async (req, reply) => {
          const length = req.headers['content-length'];
          try {
            return await receiveBytes(ctx, req.params.uploadId, {
              expires: req.query.expires,
              signature: req.query.signature,
              contentType: req.headers['content-type'],
              contentLength: length === undefined ? undefined : Number(length),
              body: (req.body as Readable | undefined) ?? req.raw,
            });
          } catch (err) {
            // The client may still be sending; do not read the rest of a refused body.
            reply.header('connection', 'close');
            throw err;
          }
        },
      );
    });

    // complete takes no body; an empty JSON body is common from clients and is accepted.
    await app.register(async (noBody) => {
      noBody.removeContentTypeParser('application/json');
      noBody.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, _body, done) =>
        done(null, undefined),
      );
      noBody.withTypeProvider<TypeBoxTypeProvider>().post(
        '/uploads/:uploadId/complete',
        {
          config: { scopes: ['posts:write'] },
          schema: {
            operationId: 'completeUpload',
            tags: ['uploads'],
            summary: 'Validate the uploaded file and mark it ready',
            description:
              'Checks container (MP4/MOV), codecs (H.264/HEVC, AAC), size, duration, dimensions and ' +
              'frame rate of videos and the real content of images. A failure marks the upload ' +
              '`failed` with `error`.',
            params: UploadIdParams,
            response: {
              200: ref(Upload),
              ...errorResponses([
                ...AUTH_ERRORS,
                'invalid_request',
                'upload_not_found',
                'upload_already_completed',
                'upload_incomplete',
                'quota_exceeded',
                ...MEDIA_ERRORS,
              ]),
            },
          },
        },
        async (req) => completeUpload(ctx, principalOf(req), req.params.uploadId),
      );
    });

    app.get(
      '/uploads/:uploadId',
      {
        // DECISIONS 7: polling an upload is part of uploading.
        config: { scopes: ['posts:read', 'posts:write'] },
        schema: {
          operationId: 'getUpload',
          tags: ['uploads'],
          summary: 'Get an upload',
          params: UploadIdParams,
          response: {
            200: ref(Upload),
            ...errorResponses([...AUTH_ERRORS, 'invalid_request', 'upload_not_found']),
          },
        },
      },
      async (req) => getUpload(ctx, principalOf(req).companyId, req.params.uploadId),
    );

    for (const thumbnail of [false, true]) {
      app.get(
        thumbnail ? '/media/uploads/:uploadId/thumbnail' : '/media/uploads/:uploadId',
        {
          config: { public: true },
          schema: {
            operationId: thumbnail ? 'downloadUploadThumbnail' : 'downloadUpload',
            tags: ['media'],
            summary: thumbnail ? 'Download an upload’s thumbnail' : 'Download an uploaded file',
            description: 'A signed URL from an upload’s `url` or `thumbnailUrl`; no API key.',
            security: [],
            params: UploadIdParams,
            querystring: SignedQuery,
            response: {
              200: binary(thumbnail ? 'The JPEG thumbnail' : 'The file bytes'),
              ...MEDIA_RESPONSES,
              ...errorResponses([
                'invalid_request',
                'invalid_signature',
                'upload_not_found',
                'range_not_satisfiable',
              ]),
            },
          },
        },
        async (req, reply) =>
          sendMedia(
            req,
            reply,
            await openUploadMedia(
              ctx,
              req.params.uploadId,
              thumbnail,
              req.query.expires,
              req.query.signature,
            ),
          ),
      );
    }
  };
}
