// Chat alerts (dashboard pages, admins only): the company's incoming-webhook URLs of Slack,
// Mattermost or Rocket.Chat, each with the alerts it receives and how its last delivery
// went; admins add one (label, URL, alert kinds), change its label and kinds, send it a
// test and remove it. The URL is shown only masked (host and last 4 characters). Changes go
// through the alerts module, which logs them in the company's activity log.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ActionRefused } from '../../lib/action-refused.ts';
import {
  ALERT_KIND_LABELS,
  COMPANY_ALERT_KINDS,
  ChatHookError,
  MAX_HOOKS,
  MAX_LABEL,
  MAX_URL,
  addChatHook,
  changeChatHook,
  defaultKinds,
  getChatHook,
  listChatHooks,
  removeChatHook,
  sendTestAlert,
  type ChatHook,
} from '../../modules/alerts/index.ts';
import { setFlash, takeFlash } from './flash.ts';
import { Repeated, fieldError, valuesOf, type FieldError } from './forms.ts';
import { page } from './layout.ts';
import { BASE, actorOf, redirect, userOf } from './session.ts';

const ADMIN = { config: { role: 'admin' as const } };
const HookParams = Type.Object({ hookId: Type.String({ maxLength: 100 }) });
/** The add and edit forms as sent; the edit form has no URL. */
const HookForm = Type.Object({
  label: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  kind: Type.Optional(Repeated),
});
type SentForm = Static<typeof HookForm>;

interface Form {
  label: string;
  url: string;
  kinds: string[];
}

/** The kinds as the form lists them, with the ids of their boxes. */
const CATALOG = COMPANY_ALERT_KINDS.map((kind) => ({
  kind,
  label: ALERT_KIND_LABELS[kind],
  id: `alert-kind-${kind.replaceAll('_', '-')}`,
}));
const FIRST_BOX = (CATALOG[0] as { id: string }).id;

function formOf(body: SentForm): Form {
  return {
    label: (body.label ?? '').trim(),
    url: (body.url ?? '').trim(),
    kinds: [...new Set(valuesOf(body.kind))],
  };
}

/** The module's refusals as the form shows them, each beside its field. */
function errorsOf(err: ChatHookError): FieldError[] {
  const ids = { label: 'alert-label', url: 'alert-url', kinds: FIRST_BOX } as const;
  return err.problems.map((p) => {
    const words = p.hint ? `${p.message} ${p.hint}` : p.message;
    return p.field ? fieldError(p.field, words, ids[p.field]) : fieldError('', words, '');
  });
}

/** An unknown hook and another company's answer alike. */
function notFoundOf(err: unknown): unknown {
  if (err instanceof ChatHookError && err.code === 'hook_not_found') {
    return new ActionRefused('not_found', 'Not found.');
  }
  return err;
}

async function found<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw notFoundOf(err);
  }
}

/** A hook as its row shows it. */
function rowOf(hook: ChatHook) {
  return { ...hook, kindText: hook.kindLabels.join(', ') };
}

export function alertPages(ctx: AppContext) {
  async function listPage(
    req: FastifyRequest,
    reply: FastifyReply,
    extra: { errors?: FieldError[]; form?: Form } = {},
  ) {
    const user = userOf(req);
    const hooks = await listChatHooks(ctx.db, user.companyId);
    return page(req, reply, 'alerts.eta', 'Chat alerts', {
      hooks: hooks.map(rowOf),
      catalog: CATALOG,
      full: hooks.length >= MAX_HOOKS,
      maxHooks: MAX_HOOKS,
      maxLabel: MAX_LABEL,
      maxUrl: MAX_URL,
      done: takeFlash(ctx, req, reply),
      errors: extra.errors ?? [],
      form: extra.form ?? { label: '', url: '', kinds: defaultKinds(user.companyId) },
    });
  }

  async function editPage(
    req: FastifyRequest,
    reply: FastifyReply,
    hookId: string,
    extra: { errors?: FieldError[]; form?: Form } = {},
  ) {
    const user = userOf(req);
    const hook = await found(getChatHook(ctx.db, user.companyId, hookId));
    return page(req, reply, 'alert-edit.eta', `Chat alerts: ${hook.label}`, {
      hook: rowOf(hook),
      catalog: CATALOG,
      maxLabel: MAX_LABEL,
      errors: extra.errors ?? [],
      form: extra.form ?? { label: hook.label, url: '', kinds: hook.kinds },
    });
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/alerts', ADMIN, async (req, reply) => listPage(req, reply));

    app.post('/alerts', { ...ADMIN, schema: { body: HookForm } }, async (req, reply) => {
      const user = userOf(req);
      const form = formOf(req.body);
      let hook;
      try {
        hook = await addChatHook(
          ctx,
          { companyId: user.companyId, actor: actorOf(user) },
          { label: form.label, url: form.url, kinds: form.kinds },
        );
      } catch (err) {
        if (!(err instanceof ChatHookError)) throw err;
        reply.code(err.code === 'hook_limit_reached' ? 409 : 400);
        return listPage(req, reply, { errors: errorsOf(err), form });
      }
      setFlash(
        ctx,
        req,
        reply,
        `Hook “${hook.label}” added. Send it a test to see that alerts arrive.`,
      );
      return redirect(req, reply, `${BASE}/alerts`);
    });

    const one = { ...ADMIN, schema: { params: HookParams } };
    app.get('/alerts/:hookId/edit', one, async (req, reply) =>
      editPage(req, reply, req.params.hookId),
    );

    app.post(
      '/alerts/:hookId/edit',
      { ...ADMIN, schema: { params: HookParams, body: HookForm } },
      async (req, reply) => {
        const user = userOf(req);
        const { hookId } = req.params;
        const form = formOf(req.body);
        let hook;
        try {
          hook = await changeChatHook(
            ctx,
            { companyId: user.companyId, actor: actorOf(user) },
            hookId,
            { label: form.label, kinds: form.kinds },
          );
        } catch (err) {
          if (!(err instanceof ChatHookError) || err.code === 'hook_not_found') {
            throw notFoundOf(err);
          }
          reply.code(400);
          return editPage(req, reply, hookId, { errors: errorsOf(err), form });
        }
        setFlash(
          ctx,
          req,
          reply,
          `Hook “${hook.label}” saved: it receives ${hook.kindLabels.join(', ')}.`,
        );
        return redirect(req, reply, `${BASE}/alerts`);
      },
    );

    app.get('/alerts/:hookId/remove', one, async (req, reply) => {
      const user = userOf(req);
      const hook = await found(getChatHook(ctx.db, user.companyId, req.params.hookId));
      return page(req, reply, 'alert-remove.eta', `Remove chat alert hook ${hook.label}`, {
        hook: rowOf(hook),
      });
    });

    app.post('/alerts/:hookId/remove', one, async (req, reply) => {
      const user = userOf(req);
      const hook = await found(
        removeChatHook(ctx, { companyId: user.companyId, actor: actorOf(user) }, req.params.hookId),
      );
      setFlash(ctx, req, reply, `Hook “${hook.label}” removed: it receives no more alerts.`);
      return redirect(req, reply, `${BASE}/alerts`);
    });

    app.post('/alerts/:hookId/test', one, async (req, reply) => {
      const user = userOf(req);
      let hook;
      try {
        hook = await sendTestAlert(
          ctx,
          { companyId: user.companyId, actor: actorOf(user) },
          req.params.hookId,
        );
      } catch (err) {
        if (!(err instanceof ChatHookError) || err.code === 'hook_not_found') {
          throw notFoundOf(err);
        }
        const [p] = err.problems;
        setFlash(ctx, req, reply, p ? `${p.message} ${p.hint}` : err.message);
        return redirect(req, reply, `${BASE}/alerts`);
      }
      setFlash(
        ctx,
        req,
        reply,
        `A test is on its way to “${hook.label}”; it should arrive within a minute.`,
      );
      return redirect(req, reply, `${BASE}/alerts`);
    });
  };
}
