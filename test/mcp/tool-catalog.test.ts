// The pure parts of the MCP server: tools from an OpenAPI document, self-contained
// schemas, and tool arguments as REST requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toolsOfDocument, type OpenApiDocument } from '../../src/mcp/tool-catalog.ts';
import { inlineRefs } from '../../src/mcp/schema-inline.ts';
import { ArgumentError, restRequestOf, toolResultOf } from '../../src/mcp/tool-call.ts';
import { kindOfName } from '../../src/mcp/upload-tool.ts';

const Thing = {
  $id: 'Thing',
  type: 'object',
  properties: { id: { type: 'string' }, 'x-odd-name': { type: 'number' } },
  'x-internal': true,
};

function doc(paths: OpenApiDocument['paths']): OpenApiDocument {
  return { paths, components: { schemas: { Thing } } };
}

const bearer = (...scopes: string[]) => [{ bearerAuth: scopes }];

test('inlining replaces component references by copies without $id or x- keywords', () => {
  const schema = inlineRefs(
    {
      type: 'object',
      properties: {
        a: { $ref: '#/components/schemas/Thing' },
        b: { $ref: '#/components/schemas/Thing' },
      },
    },
    { Thing },
  );
  const expected = {
    type: 'object',
    properties: { id: { type: 'string' }, 'x-odd-name': { type: 'number' } },
  };
  assert.deepEqual(schema, { type: 'object', properties: { a: expected, b: expected } });
  assert.throws(
    () => inlineRefs({ $ref: '#/components/schemas/Nope' }, {}),
    /unknown component Nope/,
  );
  const loop = { type: 'object', properties: { next: { $ref: '#/components/schemas/Loop' } } };
  assert.throws(
    () => inlineRefs({ $ref: '#/components/schemas/Loop' }, { Loop: loop }),
    /refers to itself/,
  );
});

test('tools are the /v2 operations a company key can call, their parts one input object', () => {
  const tools = toolsOfDocument(
    doc({
      '/v2/openapi.json': { get: { operationId: 'getOpenApi', security: [] } },
      '/v2/media/x/{id}': { get: { operationId: 'download', security: [] } },
      '/worker/v1/tasks': { get: { operationId: 'listTasks', security: [{ workerToken: [] }] } },
      '/v2/uploads': { post: { operationId: 'createUpload', security: bearer('posts:write') } },
      '/v2/things/{thingId}': {
        patch: {
          operationId: 'updateThing',
          summary: 'Update a thing',
          description: 'Changes it.',
          security: bearer('things:write'),
          parameters: [
            { in: 'path', name: 'thingId', required: true, schema: { type: 'string' } },
            { in: 'query', name: 'dryRun', schema: { type: 'boolean' } },
            { in: 'header', name: 'Idempotency-Key', schema: { type: 'string', maxLength: 200 } },
          ],
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['name'],
                  properties: {
                    name: { type: 'string' },
                    thing: { $ref: '#/components/schemas/Thing' },
                  },
                },
              },
            },
          },
          responses: {
            '200': {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
            },
          },
        },
        delete: {
          operationId: 'deleteThing',
          security: bearer('things:write'),
          parameters: [{ in: 'path', name: 'thingId' }],
        },
        get: {
          operationId: 'getThing',
          security: bearer('things:read', 'things:write'),
          parameters: [{ in: 'path', name: 'thingId' }],
        },
      },
    }),
  );
  // In the document's method order: get, post, put, patch, delete.
  assert.deepEqual(
    tools.map((t) => t.name),
    ['getThing', 'updateThing', 'deleteThing'],
  );
  const update = tools[1]!;
  assert.deepEqual(update.inputSchema.required, ['thingId', 'name']);
  assert.deepEqual(Object.keys(update.inputSchema.properties as object), [
    'thingId',
    'dryRun',
    'idempotencyKey',
    'name',
    'thing',
  ]);
  assert.equal(update.inputSchema.additionalProperties, false);
  assert.equal(update.description, 'Update a thing\n\nChanges it.');
  assert.deepEqual(update.outputSchema?.properties, {
    id: { type: 'string' },
    'x-odd-name': { type: 'number' },
  });
  assert.deepEqual(update.route, {
    method: 'PATCH',
    path: '/v2/things/{thingId}',
    pathParams: ['thingId'],
    queryParams: ['dryRun'],
    idempotencyArg: 'idempotencyKey',
    body: 'fields',
  });
  assert.deepEqual(update.annotations, {
    title: 'Update a thing',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  });
  assert.equal(tools[2]!.annotations.destructiveHint, true);
  assert.equal(tools[0]!.annotations.readOnlyHint, true);
  assert.deepEqual(tools[0]!.scopes, ['things:read', 'things:write']);
});

test('an operation whose parts name one field twice cannot become a tool', () => {
  assert.throws(
    () =>
      toolsOfDocument(
        doc({
          '/v2/a/{id}': {
            post: {
              operationId: 'clash',
              security: bearer('s'),
              parameters: [{ in: 'path', name: 'id' }],
              requestBody: {
                content: {
                  'application/json': { schema: { type: 'object', properties: { id: {} } } },
                },
              },
            },
          },
        }),
      ),
    /clash: the argument "id" is named twice/,
  );
});

test('arguments become a request: ids encoded, scalars in the query, the rest the body', () => {
  const route = {
    method: 'PATCH' as const,
    path: '/v2/things/{thingId}',
    pathParams: ['thingId'],
    queryParams: ['dryRun'],
    idempotencyArg: 'idempotencyKey',
    body: 'fields' as const,
  };
  assert.deepEqual(
    restRequestOf(route, { thingId: 'a/../b?c#d', dryRun: true, idempotencyKey: 'k1', name: 'N' }),
    {
      method: 'PATCH',
      url: '/v2/things/a%2F..%2Fb%3Fc%23d?dryRun=true',
      headers: { 'idempotency-key': 'k1', 'content-type': 'application/json' },
      body: { name: 'N' },
    },
  );
  assert.throws(
    () => restRequestOf(route, { name: 'N' }),
    (e) => e instanceof ArgumentError && /^\/thingId is required/.test(e.message),
  );
  assert.throws(() => restRequestOf(route, { thingId: { x: 1 } }), /\/thingId must be a string/);
  assert.throws(
    () => restRequestOf(route, { thingId: 'a', dryRun: [1, 2] }),
    /\/dryRun must be a single value/,
  );
  assert.throws(
    () => restRequestOf(route, { thingId: 'a', idempotencyKey: 5 }),
    /\/idempotencyKey must be a string/,
  );
  const noBody = { ...route, method: 'GET' as const, idempotencyArg: null, body: 'none' as const };
  assert.deepEqual(restRequestOf(noBody, { thingId: 't' }), {
    method: 'GET',
    url: '/v2/things/t',
    headers: {},
  });
  assert.throws(
    () => restRequestOf(noBody, { thingId: 't', other: 1 }),
    /^ArgumentError: \/other is not an argument/,
  );
});

test('answers become results: JSON as structured content and text, errors as isError', () => {
  assert.deepEqual(toolResultOf({ status: 201, body: '{"a":1}' }), {
    content: [{ type: 'text', text: '{"a":1}' }],
    structuredContent: { a: 1 },
    _meta: { 'slotline.io/httpStatus': 201 },
  });
  const envelope = '{"error":{"code":"post_not_found","message":"m","hint":"h","requestId":"r"}}';
  assert.deepEqual(toolResultOf({ status: 404, body: envelope }), {
    isError: true,
    content: [{ type: 'text', text: envelope }],
    _meta: { 'slotline.io/httpStatus': 404 },
  });
  assert.deepEqual(toolResultOf({ status: 204, body: '' }), {
    content: [{ type: 'text', text: 'Done (HTTP 204).' }],
    _meta: { 'slotline.io/httpStatus': 204 },
  });
});

test('the upload tool tells videos from images by extension', () => {
  assert.equal(kindOfName('https://cdn.example/a/clip.MOV?sig=1'), 'video');
  assert.equal(kindOfName('photo.jpeg'), 'image');
  assert.equal(kindOfName('https://cdn.example/download'), undefined);
});
