// The SDK's types (sdk/src/schema.ts), generated from the committed OpenAPI document. The text is Prettier-formatted so the
// generated file passes the repository's format check like any other source.
import { readFile } from 'node:fs/promises';
import openapiTS, { astToString } from 'openapi-typescript';
import prettier from 'prettier';
import { OPENAPI_PATH } from './openapi-document.ts';

export const SDK_SCHEMA_PATH = 'sdk/src/schema.ts';

const HEADER = '// Generated from docs/openapi.json by `npm run sdk:generate`: do not edit.\n';

/** The text sdk/src/schema.ts must hold for the committed document. */
export async function renderSdkSchema(): Promise<string> {
  const doc = JSON.parse(await readFile(OPENAPI_PATH, 'utf8'));
  const text = HEADER + astToString(await openapiTS(doc));
  const options = (await prettier.resolveConfig(SDK_SCHEMA_PATH)) ?? {};
  return prettier.format(text, { ...options, filepath: SDK_SCHEMA_PATH });
}
