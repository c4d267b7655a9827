import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import { webhookDeliveryLogRoutes } from './webhook-delivery-log.routes.ts';
import { webhookEndpointRoutes } from './webhook-endpoints.routes.ts';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './webhooks.schemas.ts';

export const webhookSchemas = [WebhookEndpoint, WebhookAttempt, WebhookDelivery];

export function webhooksRoutes(ctx: AppContext): FastifyPluginAsync {
  // Registered in this order, the operations keep their place in the OpenAPI document.
  return async (app) => {
    await app.register(webhookEndpointRoutes(ctx));
    await app.register(webhookDeliveryLogRoutes(ctx));
  };
}
