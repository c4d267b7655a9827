// Webhooks (dashboard page): every signed-in user sees the company's endpoints, their state
// and delivery log; admins create them (the signing secret is shown once), and disable,
// enable, rotate, replay and delete through webhook.pages.ts. Changes go through the
// webhooks service; the page records them in the activity log, never with a secret.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import {
  isWebhookEventType,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENTS,
  type WebhookEventType,
} from '../modules/webhooks/webhook-events.catalog.ts';
import { createWebhook, listWebhooks } from '../modules/webhooks/webhooks.service.ts';
import { page } from './layout.ts';
import { takeFlash } from './flash.ts';
import { ADMIN, field, messageOf, webhookDetailPages } from './webhook.pages.ts';
import { userOf, actorOf } from './session.ts';

const MAX_URL = 2048;
const MAX_DESCRIPTION = 500;

function values(body: unknown, name: string): string[] {
  const v = (body as Record<string, unknown> | undefined)?.[name];
  return (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');
}

interface Form {
  url: string;
  description: string;
  events: string[];
}

/** The form's input, or the message to show beside it. */
function check(form: Form): { events: WebhookEventType[] } | { error: string } {
  if (form.url.length === 0) return { error: 'Enter the URL events are sent to.' };
  if (form.url.length > MAX_URL) return { error: `A URL has at most ${MAX_URL} characters.` };
  if (form.description.length > MAX_DESCRIPTION) {
    return { error: `A description has at most ${MAX_DESCRIPTION} characters.` };
  }
  if (form.events.length === 0) return { error: 'Choose at least one event type.' };
  if (!form.events.every(isWebhookEventType)) return { error: 'Choose events from the list.' };
  // The catalog's order, whatever order the browser sent them in.
  return { events: WEBHOOK_EVENT_TYPES.filter((type) => form.events.includes(type)) };
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

  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/webhooks', async (req, reply) => listPage(req, reply));

    app.post('/webhooks', ADMIN, async (req, reply) => {
      const user = userOf(req);
      const form: Form = {
        url: field(req.body, 'url').trim(),
        description: field(req.body, 'description').trim(),
        events: [...new Set(values(req.body, 'event'))],
      };
      const input = check(form);
      if ('error' in input) {
        reply.code(400);
        return listPage(req, reply, { error: input.error, form });
      }
      let hook;
      try {
        hook = await createWebhook(
          ctx,
          user.companyId,
          {
            url: form.url,
            events: input.events,
            ...(form.description ? { description: form.description } : {}),
          },
          actorOf(user),
        );
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
