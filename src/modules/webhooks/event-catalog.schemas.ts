// The event catalog as OpenAPI 3.1 `webhooks`: one entry per event type, describing the
// POST each endpoint receives, its signature headers and its JSON body.
import { ALL_WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS } from './event-catalog.rules.ts';

const HEADERS = [
  {
    name: 'webhook-id',
    description: 'The event id: the same on every retry and replay, so receivers dedupe by it',
  },
  { name: 'webhook-timestamp', description: 'Unix seconds when this attempt was signed' },
  {
    name: 'webhook-signature',
    description:
      '`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` under the ' +
      "endpoint's secret; during a rotation one signature per secret, space-separated",
  },
].map((h) => ({ in: 'header', required: true, schema: { type: 'string' }, ...h }));

export function webhookDocs(): Record<string, unknown> {
  return Object.fromEntries(
    ALL_WEBHOOK_EVENT_TYPES.map((type) => {
      const { schema, description } = WEBHOOK_EVENTS[type];
      return [
        type,
        {
          post: {
            operationId: `webhook_${type.replaceAll('.', '_')}`,
            tags: ['webhooks'],
            summary: type,
            description,
            parameters: HEADERS,
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    additionalProperties: false,
                    required: ['type', 'timestamp', 'data'],
                    properties: {
                      type: { type: 'string', const: type },
                      timestamp: {
                        type: 'string',
                        format: 'date-time',
                        description: 'When the change happened',
                      },
                      data: schema,
                    },
                  },
                },
              },
            },
            responses: {
              '200': { description: 'Any 2xx answer is success; anything else is retried' },
              '410': { description: 'Gone: the endpoint is disabled at once' },
            },
          },
        },
      ];
    }),
  );
}
