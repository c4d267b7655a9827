// What an endpoint was sent: a test event, the delivery log (attempts and deliveries) and
// replays of past events.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth.ts';
import { AUTH_ERRORS, errorResponses } from '../../schemas/common.ts';
import {
  AttemptPage,
  BODY_ERRORS,
  WebhookDeliveryPage,
  ListAttemptsQuery,
  ListWebhookDeliveriesQuery,
  ReplayBody,
  ReplayResult,
  TestEventResult,
  WEBHOOK_TAGS,
  WebhookIdParams,
} from './webhooks.schemas.ts';
import {
  listAttempts,
  listWebhookDeliveries,
  replayEvents,
} from './webhook-delivery-log.service.ts';
import { TEST_EVENTS_PER_MINUTE, sendTestEvent } from './webhook-test.service.ts';

const READ = { scopes: ['webhooks:read' as const] };
const WRITE = { scopes: ['webhooks:write' as const] };

export function webhookDeliveryLogRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const company = (req: Parameters<typeof principalOf>[0]) => principalOf(req).companyId;

    app.post(
      '/webhooks/:webhookId/test',
      {
        config: WRITE,
        schema: {
          operationId: 'sendWebhookTestEvent',
          tags: WEBHOOK_TAGS,
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
        reply
          .status(202)
          .send(await sendTestEvent(ctx.db, ctx.clock, company(req), req.params.webhookId)),
    );

    app.get(
      '/webhooks/:webhookId/attempts',
      {
        config: READ,
        schema: {
          operationId: 'listWebhookAttempts',
          tags: WEBHOOK_TAGS,
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
          tags: WEBHOOK_TAGS,
          summary: "Each event's delivery to the endpoint and its retry state, newest first",
          params: WebhookIdParams,
          querystring: ListWebhookDeliveriesQuery,
          response: {
            200: WebhookDeliveryPage,
            ...errorResponses([
              ...AUTH_ERRORS,
              'invalid_request',
              'invalid_cursor',
              'webhook_not_found',
            ]),
          },
        },
      },
      (req) => listWebhookDeliveries(ctx, company(req), req.params.webhookId, req.query),
    );

    app.post(
      '/webhooks/:webhookId/replay',
      {
        config: WRITE,
        schema: {
          operationId: 'replayWebhookEvents',
          tags: WEBHOOK_TAGS,
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
          .send(
            await replayEvents(ctx.db, ctx.clock, company(req), req.params.webhookId, req.body),
          ),
    );
  };
}
