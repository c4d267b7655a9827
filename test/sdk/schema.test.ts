// The SDK's generated types must follow the committed document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { SDK_SCHEMA_PATH, renderSdkSchema } from '../../scripts/sdk-schema.ts';

test('sdk/src/schema.ts equals the generated one (run `npm run sdk:generate`)', async () => {
  const [committed, generated] = await Promise.all([
    readFile(SDK_SCHEMA_PATH, 'utf8'),
    renderSdkSchema(),
  ]);
  assert.equal(committed, generated);
});
