// The served OpenAPI document (SPEC 9) is generated from the routes; the
// committed copy in docs/ must match it and pass the Redocly linter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { OPENAPI_PATH, renderOpenApi } from '../../scripts/openapi-document.ts';
import { createTestApp } from '../helpers/app.ts';

const run = promisify(execFile);

/** SPEC 4 operations built so far: method and path. */
const SPEC_OPERATIONS = [
  'get /v2/accounts',
  'post /v2/accounts',
  'get /v2/accounts/{accountId}',
  'get /v2/content-tags',
  'post /v2/content-tags',
  'patch /v2/content-tags/{tagId}',
  'delete /v2/content-tags/{tagId}',
  'get /v2/schedule',
  'patch /v2/schedule',
  'get /v2/accounts/{accountId}/schedule',
  'patch /v2/accounts/{accountId}/schedule',
  'get /v2/workspace',
  'post /v2/workspace/media-urls',
  'get /v2/usage',
  'get /v2/openapi.json',
  'post /v2/uploads',
  'post /v2/uploads/{uploadId}/complete',
  'get /v2/uploads/{uploadId}',
  'post /v2/posts',
  'post /v2/posts/{postId}/queue',
  'get /v2/posts/{postId}',
  'get /v2/posts',
  'patch /v2/posts/{postId}',
  'delete /v2/posts/{postId}',
  'get /v2/posts/{postId}/analytics',
  'get /v2/accounts/{accountId}/queue',
  'get /v2/accounts/{accountId}/analytics',
];

/** The Worker API (DECISIONS 6): its own tag and its own security scheme. */
const WORKER_OPERATIONS = [
  'post /worker/v1/heartbeat',
  'post /worker/v1/tasks/claim',
  'get /worker/v1/tasks',
  'get /worker/v1/tasks/{taskId}',
  'post /worker/v1/tasks/{taskId}/result',
  'put /worker/v1/tasks/{taskId}/proof',
  'post /worker/v1/tasks/{taskId}/analytics',
  'put /worker/v1/accounts/{accountId}/stats',
  'put /worker/v1/accounts/{accountId}/status',
  'put /worker/v1/push-subscription',
  'delete /worker/v1/push-subscription',
];

test('the committed document equals the generated one (run `npm run openapi` after route changes)', async () => {
  const [committed, generated] = await Promise.all([
    readFile(OPENAPI_PATH, 'utf8'),
    renderOpenApi(),
  ]);
  assert.equal(committed, generated);
});

test('served document: OpenAPI 3.1, version 2.2.0, bearer scheme, every SPEC operation', async () => {
  const t = await createTestApp('sqlite');
  try {
    const res = await t.app.inject({ method: 'GET', url: '/v2/openapi.json' });
    assert.equal(res.statusCode, 200);
    const doc = res.json();
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '2.2.0');
    assert.deepEqual(doc.components.securitySchemes.bearerAuth, {
      type: 'http',
      scheme: 'bearer',
      description: doc.components.securitySchemes.bearerAuth.description,
    });
    assert.deepEqual(doc.paths['/v2/openapi.json'].get.security, []);
    const ops = new Set<string>();
    for (const [path, methods] of Object.entries(doc.paths as Record<string, object>)) {
      for (const method of Object.keys(methods)) ops.add(`${method} ${path}`);
    }
    for (const op of SPEC_OPERATIONS) assert.ok(ops.has(op), `missing ${op}`);
    // Every authenticated operation documents its auth errors and the envelope: API-key
    // operations 401 and 403 (scopes), worker operations 401 (no scopes, so no 403).
    for (const [path, methods] of Object.entries(
      doc.paths as Record<string, Record<string, any>>,
    )) {
      for (const [method, op] of Object.entries(methods)) {
        if (op.security?.length === 0) continue;
        const worker = path.startsWith('/worker/');
        for (const status of worker ? ['401', '500'] : ['401', '403', '500']) {
          assert.ok(op.responses[status], `${method} ${path} lacks ${status}`);
          assert.equal(
            op.responses[status].content['application/json'].schema.$ref,
            '#/components/schemas/ErrorEnvelope',
          );
        }
      }
    }
  } finally {
    await t.close();
  }
});

test('served document: the Worker API is its own tagged section with its own token scheme', async () => {
  const t = await createTestApp('sqlite');
  try {
    const doc = (await t.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json();
    const schemes = doc.components.securitySchemes;
    assert.deepEqual(schemes.workerToken, {
      type: 'http',
      scheme: 'bearer',
      description: schemes.workerToken.description,
    });
    assert.match(schemes.workerToken.description, /worker token/i);
    assert.notEqual(schemes.workerToken.description, schemes.bearerAuth.description);
    const tag = (doc.tags as { name: string; description?: string }[]).find(
      (tg) => tg.name === 'Worker API',
    );
    assert.ok(
      tag?.description && tag.description.length > 40,
      'Worker API tag lacks a description',
    );
    assert.equal(doc.components.schemas.WorkerTask.additionalProperties, false);
    const workerOps: string[] = [];
    for (const [path, methods] of Object.entries(
      doc.paths as Record<string, Record<string, any>>,
    )) {
      for (const [method, op] of Object.entries(methods)) {
        const name = `${method} ${path}`;
        const isWorker = path.startsWith('/worker/v1/');
        // Only a claim may leave its body out (the defaults apply); no extension key leaks.
        if (op.requestBody) {
          const optional = name === 'post /worker/v1/tasks/claim';
          assert.equal(op.requestBody.required, !optional, `${name} requestBody.required`);
        }
        assert.equal(op['x-body-optional'], undefined, `${name} leaks x-body-optional`);
        if (isWorker) workerOps.push(name);
        if (op.security?.length === 0) {
          assert.ok(!isWorker, `${name} is public`);
          continue;
        }
        if (isWorker) {
          // Worker tokens only, no API-key scheme, in the Worker API section alone.
          assert.deepEqual(op.security, [{ workerToken: [] }], name);
          assert.deepEqual(op.tags, ['Worker API'], name);
          assert.equal(op.responses['403'], undefined, `${name} declares 403 but has no scopes`);
          assert.match(op.responses['401'].description, /`unauthorized`/, name);
          const success = Object.keys(op.responses).filter((s) => s.startsWith('2'));
          assert.equal(success.length, 1, `${name} has one success response`);
          const answer = op.responses[success[0] as string];
          if (success[0] === '204') {
            assert.equal(answer.content, undefined, `${name} answers 204 with a body`);
          } else {
            const body = answer.content['application/json'].schema;
            assert.ok(body.$ref || body.additionalProperties === false, `${name} response is open`);
          }
          if (op.requestBody) {
            const req = op.requestBody.content['application/json'].schema;
            assert.equal(req.additionalProperties, false, `${name} body allows unknown keys`);
          }
        } else {
          assert.ok(
            op.security.every((s: object) => Object.keys(s).join() === 'bearerAuth'),
            `${name} must take API keys only`,
          );
          assert.ok(!op.tags?.includes('Worker API'), `${name} is tagged Worker API`);
        }
      }
    }
    assert.deepEqual(workerOps.sort(), [...WORKER_OPERATIONS].sort());
  } finally {
    await t.close();
  }
});

test('the committed document passes redocly lint with no errors', async () => {
  const { stdout, stderr } = await run(
    process.execPath,
    ['node_modules/@redocly/cli/bin/cli.js', 'lint', '--config', 'redocly.yaml', OPENAPI_PATH],
    {
      timeout: 60_000,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  ).catch((err: { stdout: string; stderr: string }) => {
    assert.fail(`redocly lint failed:\n${err.stdout}\n${err.stderr}`);
  });
  assert.match(stdout + stderr, /valid/);
});
