// The workspace (dashboard page; SPEC 2.10, 4.6): the company's image folders with their
// images and packs; editors create folders and packs and add images from the browser.
// Thumbnails are the same short-lived signed URLs POST /v2/workspace/media-urls makes.
//
// Uploads: the dashboard has no multipart parser (and adds no dependency for one), so the
// page's script sends each chosen file's bytes as the raw body of a PUT, with its content
// type and the CSRF header. That one route has an `image/*` body parser limited to 50 MiB
// (SPEC 2.1, 8), and checks session, CSRF and role before a byte of the body is read.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ApiError, type RefusalReason } from '../../errors.ts';
import { TAG_COLORS } from '../../modules/tags/index.ts';
import { resolveSession } from '../../modules/users/index.ts';
import {
  addImage,
  addPack,
  createFolder,
  IMAGE_LIMITS,
  getWorkspace,
  workspaceImageUrls,
} from '../../modules/workspace/index.ts';
import { Repeated, valuesOf } from './forms.ts';
import { page } from './layout.ts';
import { setFlash, takeFlash } from './flash.ts';
import {
  BASE,
  SESSION_COOKIE,
  checkCsrf,
  redirect,
  requireRole,
  userOf,
  actorOf,
} from './session.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

/** Thumbnails outlive a long look at the page, not much more. */
const THUMBNAIL_SECONDS = 900;

const FolderParams = Type.Object({ folderId: Type.String() });
/** The new folder's name; the workspace service checks it. */
const FolderForm = Type.Object({ name: Type.Optional(Type.String()) });
/** A new pack: its name, color, how images fit, and the images ticked. */
const PackForm = Type.Object({
  name: Type.Optional(Type.String()),
  color: Type.Optional(Type.String()),
  imageFit: Type.Optional(Type.String()),
  useImagesOnce: Type.Optional(Type.String()),
  imageId: Type.Optional(Repeated),
});

/** Why the page refuses, for the service refusals this page can meet. */
const REFUSALS: Partial<Record<ApiError['code'], RefusalReason>> = {
  // Another company's folder reads exactly as an unknown one.
  not_found: 'not_found',
  image_not_found: 'not_found',
  file_too_large: 'too_large',
  unsupported_media_type: 'unsupported_type',
  invalid_request: 'invalid',
  invalid_media_specs: 'invalid',
};

/** A service refusal as a page: the status its reason answers with, and its message. */
function pageErrorOf(err: unknown): unknown {
  if (!(err instanceof ApiError)) return err;
  const reason = REFUSALS[err.code];
  if (reason === undefined) return err;
  return new ActionRefused(reason, reason === 'not_found' ? 'Not found.' : err.message);
}

/** The file name without its directory or extension, as the image's label. */
function labelOf(header: unknown): string {
  let name = typeof header === 'string' ? header : '';
  try {
    name = decodeURIComponent(name);
  } catch {
    // A name that is not valid percent-encoding is used as sent.
  }
  name = name.split(/[\\/]/).pop() ?? '';
  return name.replace(/\.[^.]*$/, '').trim();
}

export function workspacePages(ctx: AppContext) {
  async function workspacePage(
    req: FastifyRequest,
    reply: FastifyReply,
    extra: { error?: string; folderName?: string } = {},
  ) {
    const user = userOf(req);
    const expiresAt = new Date(ctx.clock.now().getTime() + THUMBNAIL_SECONDS * 1000);
    const [workspace, urls] = await Promise.all([
      getWorkspace(ctx.db, ctx.clock, user.companyId),
      workspaceImageUrls(ctx, user.companyId, expiresAt),
    ]);
    return page(req, reply, 'workspace.eta', 'Workspace', {
      folders: workspace.folders.map((folder) => ({
        ...folder,
        images: folder.images.map((image) => ({
          ...image,
          url: urls.get(image.imageId) ?? '',
        })),
        packs: folder.packs.map((pack) => ({
          ...pack,
          labels: pack.imageIds.map(
            (id) => folder.images.find((i) => i.imageId === id)?.label ?? id,
          ),
        })),
      })),
      colors: TAG_COLORS,
      canEdit: user.role !== 'viewer',
      maxMiB: IMAGE_LIMITS.maxBytes / 1024 / 1024,
      done: takeFlash(ctx, req, reply),
      error: extra.error ?? null,
      folderName: extra.folderName ?? '',
    });
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const editor = { role: 'editor' as const };
    app.get('/workspace', async (req, reply) => workspacePage(req, reply));

    const folderRoute = { config: editor, schema: { body: FolderForm } };
    app.post('/workspace/folders', folderRoute, async (req, reply) => {
      const user = userOf(req);
      const name = req.body.name ?? '';
      try {
        await createFolder(ctx.db, ctx.clock, user.companyId, name, actorOf(user));
      } catch (err) {
        const refusal = pageErrorOf(err);
        if (!(refusal instanceof ActionRefused) || refusal.reason !== 'invalid') throw refusal;
        reply.code(400);
        return workspacePage(req, reply, { error: refusal.message, folderName: name });
      }
      setFlash(ctx, req, reply, `Folder “${name.trim()}” created.`);
      return redirect(req, reply, `${BASE}/workspace`);
    });

    app.post(
      '/workspace/folders/:folderId/packs',
      { config: editor, schema: { params: FolderParams, body: PackForm } },
      async (req, reply) => {
        const user = userOf(req);
        const { body } = req;
        const color = body.color || 'slate';
        if (!(TAG_COLORS as readonly string[]).includes(color)) {
          throw new ActionRefused('invalid', 'Choose a color.');
        }
        const imageIds = valuesOf(body.imageId);
        if (imageIds.length === 0) throw new ActionRefused('invalid', 'Select at least one image.');
        const name = body.name ?? '';
        try {
          await addPack(
            ctx.db,
            ctx.clock,
            user.companyId,
            {
              folderId: req.params.folderId,
              name,
              imageIds,
              imageFit: body.imageFit === 'fit' ? 'fit' : 'fill',
              useOnce: body.useImagesOnce === 'true',
              color,
            },
            actorOf(user),
          );
        } catch (err) {
          throw pageErrorOf(err);
        }
        setFlash(ctx, req, reply, `Pack “${name.trim()}” created.`);
        return redirect(req, reply, `${BASE}/workspace`);
      },
    );

    // The upload route, with its own body parser (nothing else of the dashboard takes
    // image bodies).
    await app.register(async function upload(scope) {
      scope.addContentTypeParser(
        /^image\/[\w.+-]+$/i,
        { parseAs: 'buffer', bodyLimit: IMAGE_LIMITS.maxBytes },
        (_req, body, done) => done(null, body),
      );
      // Refuse before reading up to 50 MiB: the dashboard's own session hook runs only
      // after the body is parsed (it checks again; that costs one lookup).
      scope.addHook('onRequest', async (req) => {
        const user = await resolveSession(ctx.db, ctx.clock, req.cookies[SESSION_COOKIE] ?? '');
        if (!user) throw new ActionRefused('signed_out', 'Sign in to continue.');
        req.dashboardUser = user;
        checkCsrf(req, user);
        requireRole(user, 'editor');
      });
      scope.setErrorHandler(async (err: FastifyError) => {
        if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
          throw new ActionRefused(
            'too_large',
            `An image has at most ${IMAGE_LIMITS.maxBytes / 1024 / 1024} MiB (${IMAGE_LIMITS.maxBytes.toLocaleString('en-US')} bytes).`,
          );
        }
        if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
          throw new ActionRefused('unsupported_type', 'Choose a PNG, JPEG, WebP or HEIC image.');
        }
        throw err;
      });
      scope.put<{ Params: { folderId: string } }>(
        '/workspace/folders/:folderId/images',
        { config: { role: 'editor' } },
        async (req, reply) => {
          const user = userOf(req);
          if (!Buffer.isBuffer(req.body)) {
            throw new ActionRefused('unsupported_type', 'Choose a PNG, JPEG, WebP or HEIC image.');
          }
          const label = labelOf(req.headers['x-file-name']);
          try {
            await addImage(
              ctx,
              user.companyId,
              req.params.folderId,
              { bytes: req.body, contentType: req.headers['content-type'] ?? '', label },
              actorOf(user),
            );
          } catch (err) {
            throw pageErrorOf(err);
          }
          // The script goes on to the next file, then to this address.
          setFlash(ctx, req, reply, `Image “${label || 'image'}” added.`);
          return reply.code(201).header('location', `${BASE}/workspace`).send();
        },
      );
    });
  };
}
