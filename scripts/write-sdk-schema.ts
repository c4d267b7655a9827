// `npm run sdk:generate`: rewrites sdk/src/schema.ts from docs/openapi.json.
import { writeFile } from 'node:fs/promises';
import { SDK_SCHEMA_PATH, renderSdkSchema } from './sdk-schema.ts';

await writeFile(SDK_SCHEMA_PATH, await renderSdkSchema());
console.log(`wrote ${SDK_SCHEMA_PATH}`);
