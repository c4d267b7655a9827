// The post composer (dashboard page): a video, photos or a carousel of slides with text, the
// caption, hashtags, sound, content tags and target accounts, created through the posts
// service exactly as POST /v2/posts creates it (the same validation, quotas, Idempotency-Key
// and the activity log, under the signed-in user). The form is checked against the API's
// own body schema and every problem is shown at once beside its control; nothing typed is
// lost on a refusal. Files are uploaded from the browser by the page's script through the
// routes of compose-media.pages.ts; without the script, a post of workspace images (photos
// or a carousel) still works, and the page says that uploads need JavaScript.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Principal } from '../../access.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { randomToken } from '../../lib/ids.ts';
import { listCompanyAccounts } from '../../modules/accounts/index.ts';
import { getCompany } from '../../modules/companies/index.ts';
import { createPost, postOfCreateKey, type CreatePostInput } from '../../modules/posts/index.ts';
import { listAllTags } from '../../modules/tags/index.ts';
import { IMAGE_LIMITS, uploadHeldImage, VIDEO_LIMITS } from '../../modules/uploads/index.ts';
import { readImage } from '../../modules/workspace/index.ts';
import {
  LIMITS,
  STYLE_FIELDS,
  WORKSPACE_PREFIX,
  applyOp,
  emptyState,
  newText,
  stateOf,
  type ComposeState,
  type FormBody,
  type Kind,
} from './compose-form.ts';
import { checkState, hashtagsOf, slideField } from './compose-body.ts';
import { heicSlides, isHeic, libraryOf, type Library } from './compose-library.ts';
import { setFlash } from './flash.ts';
import { fieldError, type FieldError } from './forms.ts';
import { page } from './layout.ts';
import { BASE, actorOf, redirect, userOf } from './session.ts';
import { clockface, displayTimezone } from './time.ts';
import { floorsOf, planningPriority, whenChoiceOf, whenOf, windowRows } from './window-choice.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

/** A carousel of 10 slides of 6 text boxes of 500 characters each, as a form, fits. */
const FORM_BYTES = 1024 * 1024;
const ComposeQuery = Type.Object({ kind: Type.Optional(Type.String()) });
/** The composer's window preview: the chosen accounts and the window choice (window-choice.ts). */
const WindowsQuery = Type.Record(
  Type.String({ maxLength: 80 }),
  Type.Union([
    Type.String({ maxLength: 40 }),
    Type.Array(Type.String({ maxLength: 40 }), { maxItems: 100 }),
  ]),
);
const ComposeForm = Type.Record(
  Type.String(),
  Type.Union([Type.String(), Type.Array(Type.String())]),
);

const newKey = () => `compose-${randomToken(18)}`;

/** The company as the API's key of it would be: its plan's quotas and caps apply. */
export async function principalOf(ctx: AppContext, companyId: string): Promise<Principal> {
  const company = await getCompany(ctx.db, companyId);
  if (!company) throw new ActionRefused('not_found', 'Not found.');
  return { keyId: '', companyId, scopes: new Set(['posts:write']), plan: company.plan };
}

/** For the few messages the template puts together as markup (autoEscape covers the rest). */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Where a refusal about the post's media shows, by kind of post. */
function mediaError(kind: Kind, words: string): FieldError {
  if (kind === 'video') return fieldError('video', `Video: ${words}`, 'video-file');
  if (kind === 'photos') return fieldError('image', `Images: ${words}`, 'images');
  return fieldError('slides', `Slides: ${words}`, 'slides');
}

const FORM_ERROR_ID = 'create';

/** A refusal of the posts service, worded for the form and placed beside its control. */
function refusalOf(err: ApiError, state: ComposeState): FieldError {
  const message = err.message.replace(/^\/[\w/]+:?\s*/, '');
  const code = err.code;
  if (code === 'account_not_found') {
    return fieldError(
      'account',
      'Accounts: an account you chose is not one of this company’s accounts; choose again',
      'accounts',
    );
  }
  if (code === 'upload_not_found') {
    return mediaError(state.kind, 'a file you chose is not available; choose or upload it again');
  }
  if (code === 'upload_not_ready') {
    return mediaError(state.kind, 'a file you chose has not passed its checks; upload it again');
  }
  if (code === 'invalid_media_set') {
    if (/HEIC/.test(err.message)) {
      return mediaError(state.kind, 'HEIC images cannot be drawn on slides; use PNG, JPEG or WebP');
    }
    return mediaError(
      state.kind,
      state.kind === 'video'
        ? 'upload one MP4 or MOV video'
        : state.kind === 'photos'
          ? 'a photo post is 1 to 10 images, without a video'
          : 'every slide needs an image (PNG, JPEG or WebP)',
    );
  }
  if (code === 'tag_not_found') {
    return fieldError(
      'tag',
      'Content tags: a tag you chose no longer exists; choose again',
      'tags',
    );
  }
  if (code === 'platformB_feed_posts_disabled') {
    return fieldError(
      'platformBPostFormat',
      'platformB format: this company may post Reels only on platformB',
      'format',
    );
  }
  if (code === 'invalid_request' && err.message.startsWith('/contentGroupIds')) {
    return fieldError('tag', `Content tags: ${message}`, 'tags');
  }
  if (code === 'invalid_request' && err.message.startsWith('/accountIds')) {
    return fieldError('account', `Accounts: ${message}`, 'accounts');
  }
  return fieldError('', `${message.charAt(0).toUpperCase()}${message.slice(1)}.`, FORM_ERROR_ID);
}

/** The HTTP status a refused form answers with, as the API would answer it. */
function statusOf(err: ApiError): number {
  return err.status === 404 ? 400 : err.status;
}

/** The file name a workspace image takes as an upload (the import's alike). */
export function filenameOf(label: string, contentType: string): string {
  const ext =
    { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' }[contentType] ?? 'heic';
  const base = label.replace(/[\\/]/g, ' ').trim().slice(0, 200) || 'image';
  return `${base}.${ext}`;
}

/** What a new post's flash says happens next. */
function createdNotice(status: string, accounts: number, replay: boolean): string {
  if (replay) return 'This form had already created this post; nothing new was created.';
  const n = `${accounts} account${accounts === 1 ? '' : 's'}`;
  if (status === 'processing') return `Post created for ${n}: its slides are being drawn.`;
  if (status === 'queued') return `Post created and queued for ${n}.`;
  return `Post created for ${n}: it waits for approval.`;
}

export function composePages(ctx: AppContext) {
  async function composePage(
    req: FastifyRequest,
    reply: FastifyReply,
    state: ComposeState,
    errors: FieldError[] = [],
    known?: Library,
  ) {
    const user = userOf(req);
    const companyId = user.companyId;
    const [company, accounts, tags, library] = await Promise.all([
      getCompany(ctx.db, companyId),
      listCompanyAccounts(ctx.db, companyId),
      listAllTags(ctx.db, companyId),
      known ?? libraryOf(ctx, companyId, state),
    ]);
    const picked = new Set(state.images);
    const chosen = new Set(state.accounts);
    const tagged = new Set(state.tags);
    const byField = new Map(errors.map((e) => [e.field, e.message]));
    const reader = clockface(displayTimezone(req));
    const when = whenOf(req.method === 'POST' ? (req.body as FormBody) : undefined);
    const whenChoice = await whenChoiceOf(ctx, companyId, state.accounts, when, reader, {
      priority: state.priority,
      pending: !state.skipApproval,
    });
    return page(req, reply, 'compose.eta', 'New post', {
      whenChoice,
      form: state,
      errors,
      errorOf: (field: string) => byField.get(field) ?? null,
      accounts: accounts
        .map((a) => ({
          id: a.id,
          username: a.username,
          platform: a.platform,
          displayName: a.display_name,
          status: a.status,
          checked: chosen.has(a.id),
        }))
        .sort(
          (a, b) => a.platform.localeCompare(b.platform) || a.username.localeCompare(b.username),
        ),
      tags: tags
        .filter((t) => !t.archived || tagged.has(t.tagId))
        .map((t) => ({ ...t, checked: tagged.has(t.tagId) })),
      uploaded: library.uploaded.map((i) => ({
        ...i,
        checked: picked.has(i.ref),
        heic: isHeic(i.contentType),
      })),
      folders: library.workspace.map((f) => ({
        ...f,
        images: f.images.map((i) => ({
          ...i,
          checked: picked.has(i.ref),
          heic: isHeic(i.contentType),
        })),
      })),
      video: library.video,
      styles: STYLE_FIELDS,
      limits: LIMITS,
      hashtagList: hashtagsOf(state.hashtags),
      captionChars: [...state.caption].length,
      feedPosts: company?.platformBFeedPosts === true,
      maxVideoBytes: VIDEO_LIMITS.maxBytes,
      maxImageBytes: IMAGE_LIMITS.maxBytes,
      slideField,
      blankText: newText(50),
      formErrorId: FORM_ERROR_ID,
      escape: escapeHtml,
    });
  }

  /**
   * Makes each workspace image the form uses an upload (checked and counted as any upload),
   * and puts the upload in its place in the form and the body.
   */
  async function uploadWorkspaceImages(
    principal: Principal,
    state: ComposeState,
    input: CreatePostInput,
  ): Promise<FieldError[]> {
    const refs = [...new Set(input.media.filter((m) => m.startsWith(WORKSPACE_PREFIX)))];
    const made = new Map<string, string>();
    try {
      for (const ref of refs) {
        const imageId = ref.slice(WORKSPACE_PREFIX.length);
        const image = await readImage(ctx, principal.companyId, imageId);
        const upload = await uploadHeldImage(ctx, principal, {
          filename: filenameOf(image.label, image.contentType),
          contentType: image.contentType,
          bytes: image.bytes,
        });
        made.set(ref, upload.uploadId);
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.code === 'image_not_found') {
        return [
          mediaError(state.kind, 'an image you chose is no longer in the workspace; choose again'),
        ];
      }
      return [fieldError('', `${err.message.replace(/^\/[\w/]+:?\s*/, '')}.`, FORM_ERROR_ID)];
    } finally {
      // What was made stays in the form, so sending it again does not make it again.
      const swap = (ref: string) => made.get(ref) ?? ref;
      input.media = input.media.map(swap);
      for (const slide of input.slides ?? []) slide.image = swap(slide.image);
      state.images = state.images.map(swap);
      for (const slide of state.slides) slide.image = swap(slide.image);
      state.uploaded = [...new Set([...state.uploaded, ...made.values()])];
    }
    return [];
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const editor = { role: 'editor' as const };

    app.get(
      '/compose',
      { config: editor, schema: { querystring: ComposeQuery } },
      async (req, reply) => {
        const { kind } = req.query;
        const state = emptyState(
          newKey(),
          kind === 'photos' || kind === 'carousel' ? kind : 'video',
        );
        return composePage(req, reply, state);
      },
    );

    // The window preview the page's script asks for as accounts and choices change.
    app.get(
      '/compose/windows',
      { config: editor, schema: { querystring: WindowsQuery } },
      async (req, reply) => {
        const user = userOf(req);
        const query = req.query;
        const accounts = [query.account ?? []].flat().slice(0, LIMITS.accounts);
        const reader = clockface(displayTimezone(req));
        const rows = await windowRows(
          ctx,
          user.companyId,
          accounts,
          whenOf(query),
          reader,
          planningPriority(typeof query.priority === 'string' ? query.priority : '0'),
        );
        return reply
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .view('window-rows.eta', {
            rows,
            pending: query.skipApproval !== 'true' && query.skipApproval !== 'on',
          });
      },
    );

    app.post(
      '/compose',
      { config: editor, bodyLimit: FORM_BYTES, schema: { body: ComposeForm } },
      async (req, reply) => {
        const user = userOf(req);
        const body = req.body as FormBody;
        const state = stateOf(body, newKey);
        // An editing button of the carousel (without the page's script): the form comes back
        // with the change, and nothing is created.
        const op = typeof body.op === 'string' ? body.op : '';
        if (op) {
          applyOp(state, op);
          return composePage(req, reply, state);
        }
        const library = await libraryOf(ctx, user.companyId, state);
        const checked = checkState(state);
        const errors = [...heicSlides(state, library), ...(checked.ok ? [] : checked.errors)];
        if (!checked.ok || errors.length > 0) {
          reply.code(400);
          return composePage(req, reply, state, errors, library);
        }
        const { input } = checked;
        // A form sent again (a second click, a reload) shows the post it made.
        const made = await postOfCreateKey(ctx.db, user.companyId, state.key, ctx.clock.now());
        if (made) {
          setFlash(ctx, req, reply, createdNotice('', 0, true));
          return redirect(req, reply, `${BASE}/posts/${encodeURIComponent(made)}`);
        }
        const principal = await principalOf(ctx, user.companyId);
        const refused = await uploadWorkspaceImages(principal, state, input);
        if (refused.length > 0) {
          reply.code(400);
          return composePage(req, reply, state, refused);
        }
        const reader = clockface(displayTimezone(req));
        const when = floorsOf(
          await windowRows(
            ctx,
            user.companyId,
            state.accounts,
            whenOf(body),
            reader,
            input.priority ?? 0,
          ),
        );
        if (when.errors.length > 0) {
          reply.code(400);
          return composePage(req, reply, state, when.errors);
        }
        let written;
        try {
          written = await createPost(ctx, principal, input, state.key, actorOf(user), when.floors);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          if (err.code === 'idempotency_key_mismatch' || err.code === 'idempotency_key_in_use') {
            const post = await postOfCreateKey(ctx.db, user.companyId, state.key, ctx.clock.now());
            if (post) {
              setFlash(ctx, req, reply, createdNotice('', 0, true));
              return redirect(req, reply, `${BASE}/posts/${encodeURIComponent(post)}`);
            }
          }
          reply.code(statusOf(err));
          return composePage(req, reply, state, [refusalOf(err, state)]);
        }
        const { post, replay } = written;
        setFlash(ctx, req, reply, createdNotice(post.status, post.accounts.length, replay));
        return redirect(req, reply, `${BASE}/posts/${encodeURIComponent(post.postId)}`);
      },
    );
  };
}
