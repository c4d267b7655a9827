// Chat alert hooks as pages, one set for both sides: the list of a side's incoming-webhook
// URLs with the add form, a hook's edit and remove pages, and its "Send a test" button. The
// dashboard (a company's hooks, admins only) and the console (the operator side's) each give
// a family: where the pages live, how they render and keep their flash, the kinds the side
// may choose, and a desk that does the work for the signed-in person through the alerts
// module. Kit pages import no module, so the module's refusals arrive through `problemsOf`.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ActionRefused } from '../../lib/action-refused.ts';
import { setScopedFlash, takeScopedFlash, type FlashScope } from './flash.ts';
import { fieldError, type FieldError } from './form-errors.ts';
import { Repeated, valuesOf } from './forms.ts';
import { redirect } from './session.ts';

/** What the pages show of a hook; the side's own type may carry more. */
export interface HookShown {
  hookId: string;
  label: string;
  kinds: readonly string[];
  kindLabels: readonly string[];
}

/** One refusal of the alerts module, beside its field when it has one. */
export interface HookProblem {
  code: string;
  field: 'label' | 'url' | 'kinds' | null;
  message: string;
  hint: string;
}

/** The signed-in person's hooks of the side, and what they may do with them. */
export interface HookDesk<H extends HookShown> {
  list(): Promise<H[]>;
  get(hookId: string): Promise<H>;
  add(input: { label: string; url: string; kinds: readonly string[] }): Promise<H>;
  change(hookId: string, input: { label: string; kinds: readonly string[] }): Promise<H>;
  remove(hookId: string): Promise<H>;
  test(hookId: string): Promise<H>;
}

export interface HookFamily<H extends HookShown> {
  /** The list page's address. */
  here: string;
  /** Route config every page of the family carries (such as the role it needs). */
  config: FastifyContextConfig;
  flash: FlashScope;
  /** The kinds the side may choose, in the order the form lists them. */
  kinds: readonly { kind: string; label: string }[];
  /** What a new hook receives unless told otherwise. */
  defaultKinds: readonly string[];
  limits: { maxHooks: number; maxLabel: number; maxUrl: number };
  desk(req: FastifyRequest): HookDesk<H>;
  /** The module's refusal as problems, or null for any other error. */
  problemsOf(err: unknown): readonly HookProblem[] | null;
  render(
    req: FastifyRequest,
    reply: FastifyReply,
    view: string,
    title: string,
    data: Record<string, unknown>,
  ): FastifyReply;
}

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

function formOf(body: SentForm): Form {
  return {
    label: (body.label ?? '').trim(),
    url: (body.url ?? '').trim(),
    kinds: [...new Set(valuesOf(body.kind))],
  };
}

/** A hook as its row shows it. */
function rowOf<H extends HookShown>(hook: H) {
  return { ...hook, kindText: hook.kindLabels.join(', ') };
}

export function chatHookPages<H extends HookShown>(ctx: AppContext, family: HookFamily<H>) {
  const { here, config, limits } = family;
  /** The kinds as the form lists them, with the ids of their boxes. */
  const catalog = family.kinds.map(({ kind, label }) => ({
    kind,
    label,
    id: `alert-kind-${kind.replaceAll('_', '-')}`,
  }));
  const firstBox = catalog[0]?.id ?? '';
  const flash = (req: FastifyRequest, reply: FastifyReply, message: string) =>
    setScopedFlash(ctx, req, reply, message, family.flash);

  /** The module's refusals as the form shows them, each beside its field. */
  function errorsOf(problems: readonly HookProblem[]): FieldError[] {
    const ids = { label: 'alert-label', url: 'alert-url', kinds: firstBox } as const;
    return problems.map((p) => {
      const words = p.hint ? `${p.message} ${p.hint}` : p.message;
      return p.field ? fieldError(p.field, words, ids[p.field]) : fieldError('', words, '');
    });
  }

  /** A refusal other than "no such hook", which reads as not found like another side's. */
  function refusalOf(err: unknown): readonly HookProblem[] {
    const problems = family.problemsOf(err);
    if (problems === null) throw err;
    if (problems[0]?.code === 'hook_not_found') throw new ActionRefused('not_found', 'Not found.');
    return problems;
  }

  async function found<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (err) {
      refusalOf(err);
      throw err;
    }
  }

  async function listPage(
    req: FastifyRequest,
    reply: FastifyReply,
    extra: { errors?: FieldError[]; form?: Form } = {},
  ) {
    const hooks = await family.desk(req).list();
    return family.render(req, reply, 'alerts.eta', 'Chat alerts', {
      hooks: hooks.map(rowOf),
      catalog,
      full: hooks.length >= limits.maxHooks,
      ...limits,
      done: takeScopedFlash(ctx, req, reply, family.flash),
      errors: extra.errors ?? [],
      form: extra.form ?? { label: '', url: '', kinds: family.defaultKinds },
    });
  }

  async function editPage(
    req: FastifyRequest,
    reply: FastifyReply,
    hookId: string,
    extra: { errors?: FieldError[]; form?: Form } = {},
  ) {
    const hook = await found(family.desk(req).get(hookId));
    return family.render(req, reply, 'alert-edit.eta', `Chat alerts: ${hook.label}`, {
      hook: rowOf(hook),
      catalog,
      maxLabel: limits.maxLabel,
      errors: extra.errors ?? [],
      form: extra.form ?? { label: hook.label, url: '', kinds: hook.kinds },
    });
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const one = { config, schema: { params: HookParams } };
    app.get('/alerts', { config }, async (req, reply) => listPage(req, reply));

    app.post('/alerts', { config, schema: { body: HookForm } }, async (req, reply) => {
      const form = formOf(req.body);
      let hook;
      try {
        hook = await family.desk(req).add(form);
      } catch (err) {
        const problems = family.problemsOf(err);
        if (problems === null) throw err;
        reply.code(problems[0]?.code === 'hook_limit_reached' ? 409 : 400);
        return listPage(req, reply, { errors: errorsOf(problems), form });
      }
      flash(req, reply, `Hook “${hook.label}” added. Send it a test to see that alerts arrive.`);
      return redirect(req, reply, here);
    });

    app.get('/alerts/:hookId/edit', one, async (req, reply) =>
      editPage(req, reply, req.params.hookId),
    );

    app.post(
      '/alerts/:hookId/edit',
      { config, schema: { params: HookParams, body: HookForm } },
      async (req, reply) => {
        const { hookId } = req.params;
        const form = formOf(req.body);
        let hook;
        try {
          hook = await family.desk(req).change(hookId, form);
        } catch (err) {
          const problems = refusalOf(err);
          reply.code(400);
          return editPage(req, reply, hookId, { errors: errorsOf(problems), form });
        }
        flash(req, reply, `Hook “${hook.label}” saved: it receives ${hook.kindLabels.join(', ')}.`);
        return redirect(req, reply, here);
      },
    );

    app.get('/alerts/:hookId/remove', one, async (req, reply) => {
      const hook = await found(family.desk(req).get(req.params.hookId));
      return family.render(req, reply, 'alert-remove.eta', `Remove chat alert hook ${hook.label}`, {
        hook: rowOf(hook),
      });
    });

    app.post('/alerts/:hookId/remove', one, async (req, reply) => {
      const hook = await found(family.desk(req).remove(req.params.hookId));
      flash(req, reply, `Hook “${hook.label}” removed: it receives no more alerts.`);
      return redirect(req, reply, here);
    });

    app.post('/alerts/:hookId/test', one, async (req, reply) => {
      let hook;
      try {
        hook = await family.desk(req).test(req.params.hookId);
      } catch (err) {
        const [p] = refusalOf(err);
        flash(req, reply, p ? `${p.message} ${p.hint}` : 'The test could not be sent.');
        return redirect(req, reply, here);
      }
      flash(
        req,
        reply,
        `A test is on its way to “${hook.label}”; it should arrive within a minute.`,
      );
      return redirect(req, reply, here);
    });
  };
}
