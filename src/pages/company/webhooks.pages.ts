// Webhooks (dashboard page): every signed-in user sees the company's endpoints, their state
// and delivery log; admins create and edit them (the signing secret is shown once), and
// disable, enable, rotate, replay, test and delete through webhook.pages.ts. Changes go
// through the webhooks service; the page records them in the activity log, never with a
// secret. Endpoints store the list of types they chose, with no wildcard, so "All events"
// chooses every type of the catalog at once; types added later are not among them.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENTS,
  CreateWebhookBody,
  type CreateWebhookInput,
  createWebhook,
  getWebhook,
  listWebhooks,
  updateWebhook,
} from '../../modules/webhooks/index.ts';
import { checkWith, Repeated, valuesOf, type Broken } from './forms.ts';
import { page } from './layout.ts';
import { setFlash, takeFlash } from './flash.ts';
import { ADMIN, allEvents, messageOf, webhookDetailPages } from './webhook.pages.ts';
import { BASE, redirect, userOf, actorOf } from './session.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

/** The form as sent: a URL, a description, "All events" and the event types ticked. */
const WebhookForm = Type.Object({
  url: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  all: Type.Optional(Type.String()),
  event: Type.Optional(Repeated),
});
type SentForm = Static<typeof WebhookForm>;
const WebhookParams = Type.Object({ webhookId: Type.String() });

interface Form {
  url: string;
  description: string;
  /** "All events" ticked: every type of the catalog, whatever else was ticked. */
  all: boolean;
  events: string[];
}

/** The catalog's event types as the form lists them. */
const CATALOG = WEBHOOK_EVENT_TYPES.map((type) => ({
  type,
  id: `event-${type.replaceAll('.', '-')}`,
  help: WEBHOOK_EVENTS[type].description.replaceAll('`', ''),
}));

function formOf(body: SentForm): Form {
  const all = body.all === '1' || body.all === 'on';
  return {
    url: (body.url ?? '').trim(),
    description: (body.description ?? '').trim(),
    all,
    events: all ? [...WEBHOOK_EVENT_TYPES] : [...new Set(valuesOf(body.event))],
  };
}

// What POST /v2/webhooks takes, by its own schema; the service then checks the address.
const checkWebhook = checkWith(CreateWebhookBody);

/** A refusal of the form in the words the page shows beside it. */
function refusal({ field, keyword, limit }: Broken): string {
  switch (field) {
    case 'url':
      return keyword === 'maxLength'
        ? `A URL has at most ${limit} characters.`
        : 'Enter the URL events are sent to.';
    case 'description':
      return `A description has at most ${limit} characters.`;
    default:
      return keyword === 'minItems'
        ? 'Choose at least one event type.'
        : 'Choose events from the list.';
  }
}

/** The endpoint the form asks for, or the message to show beside it. */
function check(form: Form): CreateWebhookInput | { error: string } {
  const checked = checkWebhook({
    url: form.url,
    events: form.events,
    ...(form.description ? { description: form.description } : {}),
  });
  if (!checked.ok) return { error: refusal(checked.broken) };
  const { events } = checked.value;
  // The catalog's order, whatever order the browser sent them in.
  return { ...checked.value, events: WEBHOOK_EVENT_TYPES.filter((t) => events.includes(t)) };
}

/** The company's endpoint, or the not-found page (another company's reads alike). */
async function endpointOf(ctx: AppContext, companyId: string, webhookId: string) {
  try {
    return await getWebhook(ctx.db, companyId, webhookId);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'webhook_not_found') {
      throw new ActionRefused('not_found', 'Not found.');
    }
    throw err;
  }
}

export function webhookPages(ctx: AppContext) {
  async function listPage(
    req: FastifyRequest,
    reply: FastifyReply,
    extra: { error?: string; form?: Form } = {},
  ) {
    const user = userOf(req);
    const { data } = await listWebhooks(ctx, user.companyId, { limit: 50 });
    return page(req, reply, 'webhooks.eta', 'Webhooks', {
      // Newest first: the endpoint just created is at the top.
      hooks: [...data].reverse().map((h) => ({ ...h, allEvents: allEvents(h.events) })),
      catalog: CATALOG,
      canEdit: user.role === 'admin',
      done: takeFlash(ctx, req, reply),
      error: extra.error ?? null,
      form: extra.form ?? { url: '', description: '', all: false, events: [] },
    });
  }

  async function editPage(
    req: FastifyRequest,
    reply: FastifyReply,
    webhookId: string,
    extra: { error?: string; form?: Form } = {},
  ) {
    const user = userOf(req);
    const hook = await endpointOf(ctx, user.companyId, webhookId);
    return page(req, reply, 'webhook-edit.eta', `Edit webhook ${hook.url}`, {
      hook,
      catalog: CATALOG,
      error: extra.error ?? null,
      form: extra.form ?? {
        url: hook.url,
        description: hook.description,
        all: allEvents(hook.events),
        events: hook.events,
      },
    });
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/webhooks', async (req, reply) => listPage(req, reply));

    app.post('/webhooks', { ...ADMIN, schema: { body: WebhookForm } }, async (req, reply) => {
      const user = userOf(req);
      const form = formOf(req.body);
      const input = check(form);
      if ('error' in input) {
        reply.code(400);
        return listPage(req, reply, { error: input.error, form });
      }
      let hook;
      try {
        hook = await createWebhook(ctx, user.companyId, input, actorOf(user));
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        reply.code(err.status);
        return listPage(req, reply, { error: messageOf(err), form });
      }
      // The secret exists only in this response (it is stored sealed and never shown
      // again), so this page answers the POST rather than a redirect; `page` marks it
      // no-store.
      return page(req, reply, 'webhook-secret.eta', 'Webhook endpoint created', {
        hook,
        secret: hook.secret,
        rotated: null,
      });
    });

    const editRoute = { ...ADMIN, schema: { params: WebhookParams } };
    app.get('/webhooks/:webhookId/edit', editRoute, async (req, reply) =>
      editPage(req, reply, req.params.webhookId),
    );

    app.post(
      '/webhooks/:webhookId/edit',
      { ...ADMIN, schema: { params: WebhookParams, body: WebhookForm } },
      async (req, reply) => {
        const user = userOf(req);
        const { webhookId } = req.params;
        await endpointOf(ctx, user.companyId, webhookId);
        const form = formOf(req.body);
        const input = check(form);
        if ('error' in input) {
          reply.code(400);
          return editPage(req, reply, webhookId, { error: input.error, form });
        }
        try {
          await updateWebhook(
            ctx,
            user.companyId,
            webhookId,
            { url: input.url, events: input.events, description: input.description ?? '' },
            actorOf(user),
          );
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          if (err.code === 'webhook_not_found') throw new ActionRefused('not_found', 'Not found.');
          reply.code(err.status);
          return editPage(req, reply, webhookId, { error: messageOf(err), form });
        }
        setFlash(ctx, req, reply, 'Endpoint saved: events from now on follow these settings.');
        return redirect(req, reply, `${BASE}/webhooks/${encodeURIComponent(webhookId)}`);
      },
    );

    await app.register(webhookDetailPages(ctx));
  };
}
