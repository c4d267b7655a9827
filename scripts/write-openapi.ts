// `npm run openapi`: writes the committed copy of the served OpenAPI document.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { OPENAPI_PATH, renderOpenApi } from './openapi-document.ts';

const doc = await renderOpenApi();
await mkdir(dirname(OPENAPI_PATH), { recursive: true });
await writeFile(OPENAPI_PATH, doc);
console.log(`wrote ${OPENAPI_PATH}`);
