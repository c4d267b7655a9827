import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth.ts';
import { AUTH_ERRORS, errorResponses, ref } from '../../schemas/common.ts';
import {
  AttemptPage,
  CreateWebhookBody,
  DeliveryPage,
  ListAttemptsQuery,
  ListDeliveriesQuery,
  ListWebhooksQuery,
  ReplayBody,
  ReplayResult,
  RotatedSecret,
  TestEventResult,
  UpdateWebhookBody,
  WebhookAttempt,
  WebhookDelivery,
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
import { listAttempts, listDeliveries, replayEvents } from './delivery-log.service.ts';
import { TEST_EVENTS_PER_MINUTE, sendTestEvent } from './webhook-test.service.ts';

export const webhookSchemas = [WebhookEndpoint, WebhookAttempt, WebhookDelivery];

const BODY_ERRORS = ['invalid_request', 'unsupported_media_type', 'request_too_large'] as const;
const READ = { scopes: ['webhooks:read' as const] };
const WRITE = { scopes: ['webhooks:write' as const] };
const TAGS = ['webhooks'];

export function webhooksRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const company = (req: Parameters<typeof principalOf>[0]) => principalOf(req).companyId;

    app.get(
      '/webhooks',
      {
        config: READ,
        schema: {
          operationId: 'listWebhooks',
          tags: TAGS,
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
          tags: TAGS,
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
          tags: TAGS,
          summary: 'Get a webhook endpoint',
          params: WebhookIdParams,
          response: {
            200: ref(WebhookEndpoint),
            ...errorResponses([...AUTH_ERRORS, 'invalid_request', 'webhook_not_found']),
          },
        },
      },
      (req) => getWebhook(ctx, company(req), req.params.webhookId),
    );

    app.patch(
      '/webhooks/:webhookId',
      {
        config: WRITE,
        schema: {
          operationId: 'updateWebhook',
          tags: TAGS,
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
            tags: TAGS,
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
        (req) => setWebhookEnabled(ctx, company(req), req.params.webhookId, enabled),
      );
    }

    app.delete(
      '/webhooks/:webhookId',
      {
        config: WRITE,
        schema: {
          operationId: 'deleteWebhook',
          tags: TAGS,
          summary: 'Delete a webhook endpoint with its delivery log',
          params: WebhookIdParams,
          response: {
            204: { type: 'null', description: 'Deleted' },
            ...errorResponses([...AUTH_ERRORS, 'invalid_request', 'webhook_not_found']),
          },
        },
      },
      async (req, reply) => {
        await deleteWebhook(ctx, company(req), req.params.webhookId);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/webhooks/:webhookId/rotate-secret',
      {
        config: WRITE,
        schema: {
          operationId: 'rotateWebhookSecret',
          tags: TAGS,
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

    app.post(
      '/webhooks/:webhookId/test',
      {
        config: WRITE,
        schema: {
          operationId: 'sendWebhookTestEvent',
          tags: TAGS,
          summary: 'Send a test event to the endpoint',
          description:
            'Queues one `webhook.test` event for this endpoint only, whatever event types it ' +
            'chose; it is signed, retried and logged like any other delivery, so a receiver ' +
            "can check its signature verification. The endpoint's log " +
            '(GET /v2/webhooks/{webhookId}/attempts?eventId=...) shows how it went. At most ' +
            `${TEST_EVENTS_PER_MINUTE} a minute per endpoint (\`rate_limited\` with Retry-After); ` +
            'a disabled endpoint is refused.',
          params: WebhookIdParams,
          response: {
            202: TestEventResult,
            ...errorResponses([...AUTH_ERRORS, 'invalid_request', 'webhook_not_found']),
          },
        },
      },
      async (req, reply) =>
        reply.status(202).send(await sendTestEvent(ctx, company(req), req.params.webhookId)),
    );

    app.get(
      '/webhooks/:webhookId/attempts',
      {
        config: READ,
        schema: {
          operationId: 'listWebhookAttempts',
          tags: TAGS,
          summary: 'The delivery log: every attempt, newest first',
          params: WebhookIdParams,
          querystring: ListAttemptsQuery,
          response: {
            200: AttemptPage,
            ...errorResponses([
              ...AUTH_ERRORS,
              'invalid_request',
              'invalid_cursor',
              'webhook_not_found',
            ]),
          },
        },
      },
      (req) => listAttempts(ctx, company(req), req.params.webhookId, req.query),
    );

    app.get(
      '/webhooks/:webhookId/deliveries',
      {
        config: READ,
        schema: {
          operationId: 'listWebhookDeliveries',
          tags: TAGS,
          summary: "Each event's delivery to the endpoint and its retry state, newest first",
          params: WebhookIdParams,
          querystring: ListDeliveriesQuery,
          response: {
            200: DeliveryPage,
            ...errorResponses([
              ...AUTH_ERRORS,
              'invalid_request',
              'invalid_cursor',
              'webhook_not_found',
            ]),
          },
        },
      },
      (req) => listDeliveries(ctx, company(req), req.params.webhookId, req.query),
    );

    app.post(
      '/webhooks/:webhookId/replay',
      {
        config: WRITE,
        schema: {
          operationId: 'replayWebhookEvents',
          tags: TAGS,
          summary: 'Send one event, or every event since a time, to the endpoint again',
          description:
            'Each replayed event gets a new round of attempts with the same `webhook-id`, so ' +
            'a receiver that already handled it can recognise it. At most 10,000 events per call.',
          params: WebhookIdParams,
          body: ReplayBody,
          response: {
            202: ReplayResult,
            ...errorResponses(
              [...AUTH_ERRORS, ...BODY_ERRORS, 'webhook_not_found'],
              ['event_not_found'],
            ),
          },
        },
      },
      async (req, reply) =>
        reply
          .status(202)
          .send(await replayEvents(ctx, company(req), req.params.webhookId, req.body)),
    );
  };
}
