// Chat alerts of the operator side (console pages): the incoming-webhook URLs of Slack,
// Mattermost or Rocket.Chat that the service's own staff receive alerts at (tasks nobody
// claimed, posts that failed, accounts disconnected), each with the alerts it receives and
// how its last delivery went; operators add one, change its label and kinds, send it a test
// and remove it. The URL is shown only masked. Every change is in the operator log.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ActionRefused } from '../../lib/action-refused.ts';
import {
  ALERT_KIND_LABELS,
  OPERATOR_ALERT_KINDS,
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
  type HookOwner,
} from '../../modules/alerts/index.ts';
import { setScopedFlash, takeScopedFlash } from '../kit/flash.ts';
import { fieldError, type FieldError } from '../kit/form-errors.ts';
import { Repeated, valuesOf } from '../kit/forms.ts';
import { redirect } from '../kit/session.ts';
import { consolePage } from './layout.ts';
import { OPERATOR_BASE, OPERATOR_FLASH, actorOf, sessionOf } from './session.ts';

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

const CATALOG = OPERATOR_ALERT_KINDS.map((kind) => ({
  kind,
  label: ALERT_KIND_LABELS[kind],
  id: `alert-kind-${kind.replaceAll('_', '-')}`,
}));
const FIRST_BOX = (CATALOG[0] as { id: string }).id;
const HERE = `${OPERATOR_BASE}/alerts`;

function formOf(body: SentForm): Form {
  return {
    label: (body.label ?? '').trim(),
    url: (body.url ?? '').trim(),
    kinds: [...new Set(valuesOf(body.kind))],
  };
}

function errorsOf(err: ChatHookError): FieldError[] {
  const ids = { label: 'alert-label', url: 'alert-url', kinds: FIRST_BOX } as const;
  return err.problems.map((p) => {
    const words = p.hint ? `${p.message} ${p.hint}` : p.message;
    return p.field ? fieldError(p.field, words, ids[p.field]) : fieldError('', words, '');
  });
}

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

function rowOf(hook: ChatHook) {
  return { ...hook, kindText: hook.kindLabels.join(', ') };
}

function ownerOf(req: FastifyRequest): HookOwner {
  return { companyId: null, actor: actorOf(sessionOf(req)) };
}

export function alertPages(ctx: AppContext) {
  const flash = (req: FastifyRequest, reply: FastifyReply, message: string) =>
    setScopedFlash(ctx, req, reply, message, OPERATOR_FLASH);

  async function listPage(
    req: FastifyRequest,
    reply: FastifyReply,
    extra: { errors?: FieldError[]; form?: Form } = {},
  ) {
    const hooks = await listChatHooks(ctx.db, null);
    return consolePage(req, reply, 'alerts.eta', 'Chat alerts', {
      hooks: hooks.map(rowOf),
      catalog: CATALOG,
      full: hooks.length >= MAX_HOOKS,
      maxHooks: MAX_HOOKS,
      maxLabel: MAX_LABEL,
      maxUrl: MAX_URL,
      done: takeScopedFlash(ctx, req, reply, OPERATOR_FLASH),
      errors: extra.errors ?? [],
      form: extra.form ?? { label: '', url: '', kinds: defaultKinds(null) },
    });
  }

  async function editPage(
    req: FastifyRequest,
    reply: FastifyReply,
    hookId: string,
    extra: { errors?: FieldError[]; form?: Form } = {},
  ) {
    const hook = await found(getChatHook(ctx.db, null, hookId));
    return consolePage(req, reply, 'alert-edit.eta', `Chat alerts: ${hook.label}`, {
      hook: rowOf(hook),
      catalog: CATALOG,
      maxLabel: MAX_LABEL,
      errors: extra.errors ?? [],
      form: extra.form ?? { label: hook.label, url: '', kinds: hook.kinds },
    });
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/alerts', async (req, reply) => listPage(req, reply));

    app.post('/alerts', { schema: { body: HookForm } }, async (req, reply) => {
      const form = formOf(req.body);
      let hook;
      try {
        hook = await addChatHook(ctx, ownerOf(req), {
          label: form.label,
          url: form.url,
          kinds: form.kinds,
        });
      } catch (err) {
        if (!(err instanceof ChatHookError)) throw err;
        reply.code(err.code === 'hook_limit_reached' ? 409 : 400);
        return listPage(req, reply, { errors: errorsOf(err), form });
      }
      flash(req, reply, `Hook “${hook.label}” added. Send it a test to see that alerts arrive.`);
      return redirect(req, reply, HERE);
    });

    const one = { schema: { params: HookParams } };
    app.get('/alerts/:hookId/edit', one, async (req, reply) =>
      editPage(req, reply, req.params.hookId),
    );

    app.post(
      '/alerts/:hookId/edit',
      { schema: { params: HookParams, body: HookForm } },
      async (req, reply) => {
        const { hookId } = req.params;
        const form = formOf(req.body);
        let hook;
        try {
          hook = await changeChatHook(ctx, ownerOf(req), hookId, {
            label: form.label,
            kinds: form.kinds,
          });
        } catch (err) {
          if (!(err instanceof ChatHookError) || err.code === 'hook_not_found') {
            throw notFoundOf(err);
          }
          reply.code(400);
          return editPage(req, reply, hookId, { errors: errorsOf(err), form });
        }
        flash(req, reply, `Hook “${hook.label}” saved: it receives ${hook.kindLabels.join(', ')}.`);
        return redirect(req, reply, HERE);
      },
    );

    app.get('/alerts/:hookId/remove', one, async (req, reply) => {
      const hook = await found(getChatHook(ctx.db, null, req.params.hookId));
      return consolePage(req, reply, 'alert-remove.eta', `Remove chat alert hook ${hook.label}`, {
        hook: rowOf(hook),
      });
    });

    app.post('/alerts/:hookId/remove', one, async (req, reply) => {
      const hook = await found(removeChatHook(ctx, ownerOf(req), req.params.hookId));
      flash(req, reply, `Hook “${hook.label}” removed: it receives no more alerts.`);
      return redirect(req, reply, HERE);
    });

    app.post('/alerts/:hookId/test', one, async (req, reply) => {
      let hook;
      try {
        hook = await sendTestAlert(ctx, ownerOf(req), req.params.hookId);
      } catch (err) {
        if (!(err instanceof ChatHookError) || err.code === 'hook_not_found') {
          throw notFoundOf(err);
        }
        const [p] = err.problems;
        flash(req, reply, p ? `${p.message} ${p.hint}` : err.message);
        return redirect(req, reply, HERE);
      }
      flash(
        req,
        reply,
        `A test is on its way to “${hook.label}”; it should arrive within a minute.`,
      );
      return redirect(req, reply, HERE);
    });
  };
}
