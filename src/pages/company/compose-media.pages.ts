// The post composer's media routes, called by its script (assets/compose.js) with the
// session and the CSRF header, answering JSON (or a JPEG):
// - an upload made by the uploads service under the API's rules (POST /v2/uploads, signed
//   form): the browser then PUTs the file straight to the returned `uploadUrl` and asks for
//   it to be completed (validated), then polls it until its thumbnail is made;
// - a preview of one carousel slide, a slide as POST /v2/posts takes it, drawn by the
//   renderer that makes carousel posts' media. Drawing costs a decode of up to 50 MiB and a
//   1080 x 1920 canvas, so each person has one preview drawn at a time and the process a
//   few; the rest are told to ask again in a moment.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { renderSlidePreview, Slide, type SlideInput } from '../../modules/posts/index.ts';
import {
  completeUpload,
  CreateUploadBody,
  createSignedUpload,
  getUpload,
  readImageUpload,
  type CreateUploadInput,
  type UploadOut,
} from '../../modules/uploads/index.ts';
import { readImage } from '../../modules/workspace/index.ts';
import { principalOf } from './compose.pages.ts';
import { STYLE_FIELDS, WORKSPACE_PREFIX } from './compose-form.ts';
import { fieldErrors, formCheck, type FormFields } from './forms.ts';
import { compileFormValidator } from '../../http/validation.ts';
import { userOf } from './session.ts';

/** Previews drawn at once in this process; one more person waits a moment. */
const MAX_PREVIEWS = 2;
const UploadParams = Type.Object({ uploadId: Type.String({ minLength: 1, maxLength: 200 }) });

const checkUpload = formCheck(CreateUploadBody, {
  kind: 'Kind of file',
  filename: 'File name',
  contentType: 'File type',
  sizeBytes: 'File size',
  sourceUrl: 'Source address',
});

/** A text box of a previewed slide, named as the form shows it. */
const PREVIEW_FIELDS: FormFields = {
  image: 'Background image',
  imageFit: 'Image fit',
  role: 'Role',
  textElements: { label: 'Text boxes', item: 'text box' },
};
for (let j = 0; j < 10; j++) {
  PREVIEW_FIELDS[`textElements.${j}.content`] = `Text ${j + 1}`;
  for (const f of STYLE_FIELDS) {
    PREVIEW_FIELDS[`textElements.${j}.style.${f.name}`] =
      `Text ${j + 1}, ${f.label.replace(/ \(%\)$/, '').toLowerCase()}`;
  }
}
const validateSlide = compileFormValidator(Slide);

/** A service's message without the JSON pointer the API leads with, as one sentence. */
function plain(message: string): string {
  const text = message.replace(/^\/[\w/]+:?\s*/, '');
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

function refuse(reply: FastifyReply, status: number, error: string) {
  return reply.code(status).header('cache-control', 'no-store').send({ error });
}

const MiB = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** An upload as the page's script reads it. */
function viewOf(u: UploadOut) {
  return {
    uploadId: u.uploadId,
    kind: u.kind,
    status: u.status,
    filename: u.filename,
    contentType: u.contentType,
    thumbnailUrl: u.thumbnailUrl ?? null,
    thumbnailStatus: u.thumbnailStatus ?? null,
    error: u.error ?? null,
    width: u.width ?? null,
    height: u.height ?? null,
    durationSeconds: u.durationSeconds ?? null,
  };
}

/** A refusal of the uploads service, in words for the person who chose the file. */
function uploadRefusal(reply: FastifyReply, err: ApiError, input?: CreateUploadInput) {
  if (err.code === 'upload_not_found') return refuse(reply, 404, 'This upload was not found.');
  if (err.code === 'file_too_large' && input?.sizeBytes) {
    const limit = Number(/limit of (\d+)/.exec(err.message)?.[1] ?? 0);
    const what = input.kind === 'video' ? 'a video' : 'an image';
    return refuse(
      reply,
      413,
      `“${input.filename ?? 'The file'}” is ${MiB(input.sizeBytes)}; ${what} can be at most ${MiB(limit)}.`,
    );
  }
  if (err.code === 'upload_incomplete') {
    return refuse(reply, 409, 'The file did not arrive completely; upload it again.');
  }
  return refuse(reply, err.status, plain(err.message));
}

export function composeMediaPages(ctx: AppContext) {
  const publicUrl = ctx.config.publicUrl;
  let drawing = 0;
  const drawingFor = new Set<string>();

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const editor = { role: 'editor' as const };

    app.post('/compose/uploads', { config: editor, bodyLimit: 16 * 1024 }, async (req, reply) => {
      const user = userOf(req);
      const body = (req.body ?? {}) as Record<string, unknown>;
      if ('sourceUrl' in body) {
        return refuse(reply, 400, 'The composer uploads a file from this device; choose a file.');
      }
      // The dashboard's CSRF token may travel in the body too; the rest is the API's body.
      const fields = { ...body };
      delete fields._csrf;
      const checked = checkUpload(fields);
      if (!checked.ok) {
        return refuse(reply, 400, checked.errors.map((e) => `${e.message}.`).join(' '));
      }
      let created;
      try {
        created = await createSignedUpload(
          ctx,
          await principalOf(ctx, user.companyId),
          checked.value,
        );
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return uploadRefusal(reply, err, checked.value);
      }
      // The service's own upload address is given as a path, so the browser sends the file
      // to the address it has the page from (the signature covers the path, not the host);
      // an object store's presigned address is given whole.
      const uploadUrl = created.uploadUrl?.startsWith(`${publicUrl}/`)
        ? created.uploadUrl.slice(publicUrl.length)
        : created.uploadUrl;
      return reply.code(201).send({ ...created, uploadUrl });
    });

    app.post(
      '/compose/uploads/:uploadId/complete',
      { config: editor, schema: { params: UploadParams } },
      async (req, reply) => {
        const user = userOf(req);
        try {
          const principal = await principalOf(ctx, user.companyId);
          return viewOf(await completeUpload(ctx, principal, req.params.uploadId));
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          return uploadRefusal(reply, err);
        }
      },
    );

    app.get(
      '/compose/uploads/:uploadId',
      { config: editor, schema: { params: UploadParams } },
      async (req, reply) => {
        const user = userOf(req);
        try {
          const upload = viewOf(await getUpload(ctx, user.companyId, req.params.uploadId));
          return reply.header('cache-control', 'no-store').send(upload);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          return uploadRefusal(reply, err);
        }
      },
    );

    app.post('/compose/preview', { config: editor, bodyLimit: 64 * 1024 }, async (req, reply) => {
      const user = userOf(req);
      const slide = req.body as SlideInput;
      if (!validateSlide(slide)) {
        const errors = fieldErrors(validateSlide.errors ?? [], PREVIEW_FIELDS);
        return refuse(reply, 400, errors.map((e) => `${e.message}.`).join(' '));
      }
      if (drawingFor.has(user.userId) || drawing >= MAX_PREVIEWS) {
        reply.header('retry-after', '1');
        return refuse(reply, 429, 'Another preview is being drawn; this one follows in a moment.');
      }
      drawing++;
      drawingFor.add(user.userId);
      try {
        let image: { bytes: Buffer; contentType: string };
        try {
          image = slide.image.startsWith(WORKSPACE_PREFIX)
            ? await readImage(ctx, user.companyId, slide.image.slice(WORKSPACE_PREFIX.length))
            : await readImageUpload(ctx, user.companyId, slide.image);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          // Another company's image reads exactly as an unknown one.
          if (err.code === 'image_not_found' || err.code === 'upload_not_found') {
            return refuse(reply, 400, 'Background image: not found; choose the image again.');
          }
          if (err.code === 'invalid_media_set') {
            return refuse(reply, 400, 'Background image: this upload is a video; choose an image.');
          }
          return refuse(reply, 400, 'Background image: this upload has not passed its checks.');
        }
        if (/^image\/hei[cf]$/i.test(image.contentType)) {
          return refuse(
            reply,
            400,
            'Background image: HEIC images cannot be drawn on slides; choose a PNG, JPEG or WebP image.',
          );
        }
        let jpeg: Buffer;
        try {
          jpeg = await renderSlidePreview(slide, image.bytes);
        } catch (err) {
          req.log.warn({ err }, 'slide preview failed');
          return refuse(reply, 422, 'The background image could not be drawn; choose another.');
        }
        return reply.type('image/jpeg').header('cache-control', 'no-store').send(jpeg);
      } finally {
        drawing--;
        drawingFor.delete(user.userId);
      }
    });
  };
}
