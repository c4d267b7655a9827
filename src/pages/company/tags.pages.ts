// Content tags (dashboard page; SPEC 2.4, 4.3): every tag with its color, content group,
// state and the posts, views and likes attributed to it, untagged posts beside them;
// editors create, rename, recolor, archive and delete. Changes go through the tags service,
// which records them in the activity log in the same transaction.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { totalsByGroup, type GroupTotals } from '../../modules/analytics/index.ts';
import {
  createTag,
  deleteTag,
  getTag,
  listAllTags,
  tagPostCount,
  updateTag,
  CreateTagBody,
  TAG_COLORS,
  type CreateTagInput,
} from '../../modules/tags/index.ts';
import { fieldError, formCheck, type FieldError } from './forms.ts';
import { page } from './layout.ts';
import { setFlash, takeFlash } from './flash.ts';
import { BASE, redirect, userOf, actorOf } from './session.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

const NONE: GroupTotals = { posts: 0, views: 0, likes: 0 };

const TagParams = Type.Object({ tagId: Type.String() });
/** The create and edit forms as sent. */
const TagForm = Type.Object({
  name: Type.Optional(Type.String()),
  color: Type.Optional(Type.String()),
});
type TagFormIn = Static<typeof TagForm>;
/** The archive and restore buttons: `archived=true` archives, anything else restores. */
const ArchiveForm = Type.Object({ archived: Type.Optional(Type.String()) });

// A name and color by the API's own rules (SPEC 2.4), as POST /v2/content-tags takes them,
// every error at once in the form's words (pages/kit/form-errors.ts); both tag forms use these ids.
const checkTag = formCheck(CreateTagBody, {
  name: { label: 'Name', id: 'tag-name' },
  color: { label: 'Color', id: 'tag-color', messages: { enum: 'choose one from the list' } },
});

/** The refusal of a name another tag of the company has. */
function nameTaken(name: string): FieldError[] {
  return [
    fieldError(
      'name',
      `A tag named “${name}” already exists (names are compared without case).`,
      'tag-name',
    ),
  ];
}

/** What the form shows again beside an error: the fields as they were typed. */
function typed(body: TagFormIn): { name: string; color: string } {
  return { name: body.name ?? '', color: body.color ?? '' };
}

/** A form's name and color, or the errors to show with the form. */
function tagForm(body: TagFormIn): CreateTagInput | { errors: FieldError[] } {
  // Surrounding spaces are a typing accident, not part of a name; no color is the default.
  const checked = checkTag({ name: (body.name ?? '').trim(), color: body.color || 'slate' });
  return checked.ok ? checked.value : { errors: checked.errors };
}

/** A service refusal as the page shows it: another company's tag reads as an unknown one. */
function pageErrorOf(err: unknown): unknown {
  if (err instanceof ApiError && err.code === 'tag_not_found') {
    return new ActionRefused('not_found', 'Not found.');
  }
  return err;
}

async function tagOr404(ctx: AppContext, companyId: string, tagId: string) {
  try {
    return await getTag(ctx.db, companyId, tagId);
  } catch (err) {
    throw pageErrorOf(err);
  }
}

export function tagPages(ctx: AppContext) {
  async function listPage(
    req: FastifyRequest,
    reply: FastifyReply,
    extra: { createErrors?: FieldError[]; form?: { name: string; color: string } } = {},
  ) {
    const user = userOf(req);
    const [tags, totals] = await Promise.all([
      listAllTags(ctx.db, user.companyId),
      totalsByGroup(ctx.db, user.companyId, 'tag'),
    ]);
    return page(req, reply, 'tags.eta', 'Content tags', {
      tags: tags.map((tag) => ({ ...tag, totals: totals.groups.get(tag.contentGroupId) ?? NONE })),
      untagged: totals.untagged,
      colors: TAG_COLORS,
      canEdit: user.role !== 'viewer',
      done: takeFlash(ctx, req, reply),
      errors: extra.createErrors ?? [],
      form: extra.form ?? { name: '', color: 'slate' },
    });
  }

  async function editPage(
    req: FastifyRequest,
    reply: FastifyReply,
    tagId: string,
    extra: { errors?: FieldError[]; form?: { name: string; color: string } } = {},
  ) {
    const user = userOf(req);
    const tag = await tagOr404(ctx, user.companyId, tagId);
    return page(req, reply, 'tag-edit.eta', `Edit tag ${tag.name}`, {
      tag,
      colors: TAG_COLORS,
      errors: extra.errors ?? [],
      form: extra.form ?? { name: tag.name, color: tag.color },
    });
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const editor = { role: 'editor' as const };
    app.get('/tags', async (req, reply) => listPage(req, reply));

    app.post('/tags', { config: editor, schema: { body: TagForm } }, async (req, reply) => {
      const user = userOf(req);
      const input = tagForm(req.body);
      const form = typed(req.body);
      if ('errors' in input) {
        reply.code(400);
        return listPage(req, reply, { createErrors: input.errors, form });
      }
      try {
        await createTag(ctx, user.companyId, input, actorOf(user));
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 'tag_name_taken')) throw err;
        reply.code(409);
        return listPage(req, reply, { createErrors: nameTaken(input.name), form });
      }
      setFlash(ctx, req, reply, `Tag “${input.name}” created.`);
      return redirect(req, reply, `${BASE}/tags`);
    });

    app.get('/tags/:tagId', { config: editor, schema: { params: TagParams } }, async (req, reply) =>
      editPage(req, reply, req.params.tagId),
    );

    app.post(
      '/tags/:tagId',
      { config: editor, schema: { params: TagParams, body: TagForm } },
      async (req, reply) => {
        const user = userOf(req);
        const { tagId } = req.params;
        const input = tagForm(req.body);
        const form = typed(req.body);
        if ('errors' in input) {
          await tagOr404(ctx, user.companyId, tagId);
          reply.code(400);
          return editPage(req, reply, tagId, { errors: input.errors, form });
        }
        try {
          await updateTag(ctx, user.companyId, tagId, input, actorOf(user));
        } catch (err) {
          if (!(err instanceof ApiError && err.code === 'tag_name_taken')) throw pageErrorOf(err);
          reply.code(409);
          return editPage(req, reply, tagId, { errors: nameTaken(input.name), form });
        }
        setFlash(ctx, req, reply, `Tag “${input.name}” saved.`);
        return redirect(req, reply, `${BASE}/tags`);
      },
    );

    app.post(
      '/tags/:tagId/archive',
      { config: editor, schema: { params: TagParams, body: ArchiveForm } },
      async (req, reply) => {
        const user = userOf(req);
        const archived = req.body.archived === 'true';
        let tag;
        try {
          tag = await updateTag(ctx, user.companyId, req.params.tagId, { archived }, actorOf(user));
        } catch (err) {
          throw pageErrorOf(err);
        }
        setFlash(ctx, req, reply, `Tag “${tag.name}” ${archived ? 'archived' : 'restored'}.`);
        return redirect(req, reply, `${BASE}/tags`);
      },
    );

    app.get(
      '/tags/:tagId/delete',
      { config: editor, schema: { params: TagParams } },
      async (req, reply) => {
        const user = userOf(req);
        const tag = await tagOr404(ctx, user.companyId, req.params.tagId);
        return page(req, reply, 'tag-delete.eta', `Delete tag ${tag.name}`, {
          tag,
          posts: await tagPostCount(ctx.db, user.companyId, tag.tagId),
        });
      },
    );

    app.post(
      '/tags/:tagId/delete',
      { config: editor, schema: { params: TagParams } },
      async (req, reply) => {
        const user = userOf(req);
        const tag = await tagOr404(ctx, user.companyId, req.params.tagId);
        let result;
        try {
          result = await deleteTag(ctx.db, ctx.clock, user.companyId, tag.tagId, actorOf(user));
        } catch (err) {
          throw pageErrorOf(err);
        }
        const done = `Tag “${tag.name}” deleted and removed from ${result.updatedPosts} post(s).`;
        setFlash(ctx, req, reply, done);
        return redirect(req, reply, `${BASE}/tags`);
      },
    );
  };
}
