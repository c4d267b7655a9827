// Webhooks (dashboard page): every signed-in user sees the company's endpoints, their state
// and delivery log; admins create them (the signing secret is shown once), and disable,
// enable, rotate, replay and delete through webhook.pages.ts. Changes go through the
// webhooks service; the page records them in the activity log, never with a secret.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENTS,
  CreateWebhookBody,
  type CreateWebhookInput,
  createWebhook,
  listWebhooks,
} from '../modules/webhooks/index.ts';
import { checkWith, Repeated, valuesOf, type Broken } from './forms.ts';
import { page } from './layout.ts';
import { takeFlash } from './flash.ts';
import { ADMIN, messageOf, webhookDetailPages } from './webhook.pages.ts';
import { userOf, actorOf } from './session.ts';

/** The form as sent: a URL, a description and the event types ticked. */
const NewWebhookForm = Type.Object({
  url: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  event: Type.Optional(Repeated),
});

interface Form {
  url: string;
  description: string;
  events: string[];
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
      hooks: [...data].reverse(),
      catalog: WEBHOOK_EVENT_TYPES.map((type) => ({
        type,
        id: `event-${type.replaceAll('.', '-')}`,
        help: WEBHOOK_EVENTS[type].description.replaceAll('`', ''),
      })),
      canEdit: user.role === 'admin',
      done: takeFlash(ctx, req, reply),
      error: extra.error ?? null,
      form: extra.form ?? { url: '', description: '', events: [] },
    });
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/webhooks', async (req, reply) => listPage(req, reply));

    app.post('/webhooks', { ...ADMIN, schema: { body: NewWebhookForm } }, async (req, reply) => {
      const user = userOf(req);
      const form: Form = {
        url: (req.body.url ?? '').trim(),
        description: (req.body.description ?? '').trim(),
        events: [...new Set(valuesOf(req.body.event))],
      };
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

    await app.register(webhookDetailPages(ctx));
  };
}
