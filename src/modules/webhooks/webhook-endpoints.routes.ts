// A company's webhook endpoints: list, create, read, change, disable or enable, delete, and
// rotate the signing secret.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth.ts';
import { AUTH_ERRORS, errorResponses, ref } from '../../schemas/common.ts';
import {
  BODY_ERRORS,
  CreateWebhookBody,
  ListWebhooksQuery,
  RotatedSecret,
  UpdateWebhookBody,
  WEBHOOK_TAGS,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookIdParams,
  WebhookPage,
} from './webhooks.schemas.ts';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateWebhookSecret,
  setWebhookEnabled,
  updateWebhook,
} from './webhooks.service.ts';

const READ = { scopes: ['webhooks:read' as const] };
const WRITE = { scopes: ['webhooks:write' as const] };

export function webhookEndpointRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const company = (req: Parameters<typeof principalOf>[0]) => principalOf(req).companyId;

    app.get(
      '/webhooks',
      {
        config: READ,
        schema: {
          operationId: 'listWebhooks',
          tags: WEBHOOK_TAGS,
          summary: 'List webhook endpoints',
          querystring: ListWebhooksQuery,
          response: {
            200: WebhookPage,
            ...errorResponses([...AUTH_ERRORS, 'invalid_request', 'invalid_cursor']),
          },
        },
      },
      (req) => listWebhooks(ctx, company(req), req.query),
    );

    app.post(
      '/webhooks',
      {
        config: WRITE,
        schema: {
          operationId: 'createWebhook',
          tags: WEBHOOK_TAGS,
          summary: 'Create a webhook endpoint',
          description:
            'Events of the chosen types are POSTed to `url` as `{type, timestamp, data}`, signed ' +
            'per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with ' +
            'the returned `secret`, which is shown only here. A 2xx answer is success; anything ' +
            'else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h ' +
            '(each ±10 %). The event types and their data are listed under `webhooks` in this ' +
            'document.',
          body: CreateWebhookBody,
          response: {
            201: WebhookEndpointWithSecret,
            ...errorResponses([...AUTH_ERRORS, ...BODY_ERRORS, 'webhook_limit_reached']),
          },
        },
      },
      async (req, reply) =>
        reply.status(201).send(await createWebhook(ctx, company(req), req.body)),
    );

    app.get(
      '/webhooks/:webhookId',
      {
        config: READ,
        schema: {
          operationId: 'getWebhook',
          tags: WEBHOOK_TAGS,
          summary: 'Get a webhook endpoint',
          params: WebhookIdParams,
          response: {
            200: ref(WebhookEndpoint),
            ...errorResponses([...AUTH_ERRORS, 'invalid_request', 'webhook_not_found']),
          },
        },
      },
      (req) => getWebhook(ctx.db, company(req), req.params.webhookId),
    );

    app.patch(
      '/webhooks/:webhookId',
      {
        config: WRITE,
        schema: {
          operationId: 'updateWebhook',
          tags: WEBHOOK_TAGS,
          summary: "Change a webhook endpoint's URL, event types or description",
          params: WebhookIdParams,
          body: UpdateWebhookBody,
          response: {
            200: ref(WebhookEndpoint),
            ...errorResponses([...AUTH_ERRORS, ...BODY_ERRORS, 'webhook_not_found']),
          },
        },
      },
      (req) => updateWebhook(ctx, company(req), req.params.webhookId, req.body),
    );

    for (const [action, enabled] of [
      ['disable', false],
      ['enable', true],
    ] as const) {
      app.post(
        `/webhooks/:webhookId/${action}`,
        {
          config: WRITE,
          schema: {
            operationId: `${action}Webhook`,
            tags: WEBHOOK_TAGS,
            summary: enabled
              ? 'Enable a webhook endpoint again'
              : 'Disable a webhook endpoint (its pending deliveries fail)',
            params: WebhookIdParams,
            response: {
              200: ref(WebhookEndpoint),
              ...errorResponses([...AUTH_ERRORS, 'invalid_request', 'webhook_not_found']),
            },
          },
        },
        (req) => setWebhookEnabled(ctx.db, ctx.clock, company(req), req.params.webhookId, enabled),
      );
    }

    app.delete(
      '/webhooks/:webhookId',
      {
        config: WRITE,
        schema: {
          operationId: 'deleteWebhook',
          tags: WEBHOOK_TAGS,
          summary: 'Delete a webhook endpoint with its delivery log',
          params: WebhookIdParams,
          response: {
            204: { type: 'null', description: 'Deleted' },
            ...errorResponses([...AUTH_ERRORS, 'invalid_request', 'webhook_not_found']),
          },
        },
      },
      async (req, reply) => {
        await deleteWebhook(ctx.db, ctx.clock, company(req), req.params.webhookId);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/webhooks/:webhookId/rotate-secret',
      {
        config: WRITE,
        schema: {
          operationId: 'rotateWebhookSecret',
          tags: WEBHOOK_TAGS,
          summary: 'Replace the signing secret; the old one keeps signing for 24 hours',
          params: WebhookIdParams,
          response: {
            200: RotatedSecret,
            ...errorResponses([...AUTH_ERRORS, 'invalid_request', 'webhook_not_found']),
          },
        },
      },
      (req) => rotateWebhookSecret(ctx, company(req), req.params.webhookId),
    );
  };
}
