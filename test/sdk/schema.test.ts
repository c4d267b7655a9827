// The SDK's generated types must follow the committed document, and the creates it
// keys automatically must be exactly those the document says take an Idempotency-Key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { OPENAPI_PATH } from '../../scripts/openapi-document.ts';
import { SDK_SCHEMA_PATH, renderSdkSchema } from '../../scripts/sdk-schema.ts';
import { takesIdempotencyKey } from '../../sdk/src/transport.ts';

test('sdk/src/schema.ts equals the generated one (run `npm run sdk:generate`)', async () => {
  const [committed, generated] = await Promise.all([
    readFile(SDK_SCHEMA_PATH, 'utf8'),
    renderSdkSchema(),
  ]);
  assert.equal(committed, generated);
});

test('the SDK keys exactly the operations that declare Idempotency-Key', async () => {
  const doc = JSON.parse(await readFile(OPENAPI_PATH, 'utf8'));
  let keyed = 0;
  for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
    const concrete = path.replace(/\{[^}]+\}/g, 'id_1');
    for (const [method, op] of Object.entries<any>(methods)) {
      const declares = (op.parameters ?? []).some(
        (p: any) => p.in === 'header' && p.name === 'Idempotency-Key',
      );
      if (declares) keyed++;
      assert.equal(
        takesIdempotencyKey(method.toUpperCase(), concrete),
        declares,
        `${method} ${path}`,
      );
    }
  }
  assert.ok(keyed >= 2);
});
