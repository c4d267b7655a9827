import type { SwaggerOptions } from '@fastify/swagger';
import { MAX_JSON_DEPTH } from './json-body.ts';

/** Success responses are described by the operation summary instead of a generic text. */
function describeSuccess(schema?: {
  summary?: string;
  response?: Record<string, Record<string, unknown>>;
}): void {
  for (const [status, response] of Object.entries(schema?.response ?? {})) {
    if (status.startsWith('2') && response.description === undefined) {
      schema!.response![status] = { ...response, description: schema?.summary ?? 'Success' };
    }
  }
}

/**
 * The OpenAPI 3.1 document is generated from the route schemas (SPEC 9). Its server is
 * the service's public URL, so a client generated from it needs no base URL.
 */
export function openapiOptions(
  publicUrl: string,
  webhooks: Record<string, unknown> = {},
): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Slotline API',
        version: '2.2.0',
        description:
          'Server-to-server publishing: upload media, create and queue posts to short-video and photo ' +
          'accounts, tag posts for analytics, read queues, analytics, schedules, the company workspace ' +
          'and usage. Every /v2 call is bound to the company of its API key. The Worker API ' +
          '(/worker/v1) is for the workers operating accounts and takes worker tokens instead. ' +
          'Errors use one envelope: `{ "error": { code, message, hint, requestId } }`. ' +
          `JSON bodies nest at most ${MAX_JSON_DEPTH} levels of objects and arrays; a deeper ` +
          'one answers 400 `invalid_request`. ' +
          'Agents can use the same operations as MCP tools: POST /mcp (Streamable HTTP, the ' +
          'same API key) serves one tool per /v2 operation, named by its operationId.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        contact: { name: 'Slotline support' },
      },
      servers: [{ url: publicUrl, description: 'This service (its PUBLIC_URL)' }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An API key bound to one company, sent as "Authorization: Bearer <API_KEY>".',
          },
          workerToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              'A worker token (`slw_...`) issued by the admin CLI, sent as ' +
              '"Authorization: Bearer <WORKER_TOKEN>". Only the Worker API accepts it, and the ' +
              'Worker API accepts nothing else.',
          },
        },
      },
      security: [{ bearerAuth: [] }],
      tags: [
        { name: 'posts', description: 'Posts and their queue items' },
        { name: 'uploads', description: 'Media uploads: signed or remote' },
        { name: 'accounts', description: 'Publishing accounts' },
        { name: 'analytics', description: 'Post and account analytics' },
        { name: 'content-tags', description: 'Content tags for analytics attribution' },
        { name: 'schedules', description: 'Posting windows' },
        { name: 'workspace', description: 'Company workspace and image URLs' },
        { name: 'media', description: 'Signed media downloads' },
        { name: 'usage', description: 'Plan and daily usage' },
        { name: 'webhooks', description: 'Signed event deliveries to your endpoints' },
        { name: 'meta', description: 'This description' },
        {
          name: 'Worker API',
          description:
            'For the workers (people with a device, or automations) operating accounts ' +
            '(DECISIONS 6), authenticated with worker tokens, not company API keys. At each ' +
            'window the dispatcher releases an item of an account; it becomes a task of the ' +
            'account’s worker, which claims it, downloads its media through signed URLs, posts ' +
            'it, reports `posted` or `failed` by the task’s `reportBy`, and later pushes ' +
            'analytics. A worker sees only tasks of the accounts it operates and tasks it ' +
            'claimed; anything else is not found. Worker requests count against no company’s ' +
            'daily request cap.',
        },
      ],
    },
    // The scopes a route needs become its security requirement, so the document
    // states them machine-readably: `security: [{ bearerAuth: ['posts:read'] }]`.
    transform({ schema, url, route }) {
      const scopes = route.config?.scopes;
      describeSuccess(
        schema as { summary?: string; response?: Record<string, Record<string, unknown>> },
      );
      if (schema && !schema.security && route.config?.worker) {
        return { schema: { ...schema, security: [{ workerToken: [] }] }, url };
      }
      if (!schema || schema.security || !scopes) return { schema, url };
      const needs = scopes.map((s) => `\`${s}\``).join(' or ');
      const description = [schema.description, `Requires scope ${needs}.`]
        .filter(Boolean)
        .join('\n\n');
      return { schema: { ...schema, description, security: [{ bearerAuth: [...scopes] }] }, url };
    },
    // @fastify/swagger marks every body required; an operation that takes a missing body
    // as {} says so with `x-body-optional`, which becomes `requestBody.required: false`.
    transformObject(documentObject) {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      const { openapiObject } = documentObject;
      for (const path of Object.values(openapiObject.paths ?? {})) {
        for (const op of Object.values(path as Record<string, Record<string, unknown>>)) {
          if (!op || typeof op !== 'object' || !op['x-body-optional']) continue;
          delete op['x-body-optional'];
          if (op.requestBody) (op.requestBody as { required?: boolean }).required = false;
        }
      }
      // The events this service sends (OpenAPI 3.1 `webhooks`), built by the caller.
      if (Object.keys(webhooks).length) {
        (openapiObject as { webhooks?: Record<string, unknown> }).webhooks = webhooks;
      }
      return openapiObject;
    },
    refResolver: {
      buildLocalReference(json, _baseUri, _fragment, i) {
        return typeof json.$id === 'string' ? json.$id : `def-${i}`;
      },
    },
  };
}
