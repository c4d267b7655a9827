import type { SwaggerOptions } from '@fastify/swagger';

/** The OpenAPI 3.1 document is generated from the route schemas (SPEC 9). */
export function openapiOptions(publicUrl: string): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Slotline API',
        version: '2.2.0',
        description:
          'Server-to-server publishing: upload media, create and queue posts to short-video and photo ' +
          'accounts, tag posts for analytics, read queues, analytics, schedules, the company workspace ' +
          'and usage. Every call is bound to the company of its API key. Errors use one envelope: ' +
          '`{ "error": { code, message, hint, requestId } }`.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        contact: { name: 'Slotline support' },
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An API key bound to one company, sent as "Authorization: Bearer <API_KEY>".',
          },
        },
      },
      security: [{ bearerAuth: [] }],
      tags: [
        { name: 'accounts', description: 'Publishing accounts' },
        { name: 'content-tags', description: 'Content tags for analytics attribution' },
        { name: 'schedules', description: 'Posting windows' },
        { name: 'workspace', description: 'Company workspace and image URLs' },
        { name: 'media', description: 'Signed media downloads' },
        { name: 'usage', description: 'Plan and daily usage' },
        { name: 'meta', description: 'This description' },
      ],
    },
    refResolver: {
      buildLocalReference(json, _baseUri, _fragment, i) {
        return typeof json.$id === 'string' ? json.$id : `def-${i}`;
      },
    },
  };
}
