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
    // Every authenticated operation documents its auth errors and the envelope.
    for (const [path, methods] of Object.entries(
      doc.paths as Record<string, Record<string, any>>,
    )) {
      for (const [method, op] of Object.entries(methods)) {
        if (op.security?.length === 0) continue;
        for (const status of ['401', '403', '500']) {
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
