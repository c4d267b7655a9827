// Builds the OpenAPI document exactly as the service serves it, on a throwaway
// embedded database, with a fixed public URL so the committed copy is stable.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.ts';
import { openContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';

export const OPENAPI_PATH = 'docs/openapi.json';
export const DOCUMENT_PUBLIC_URL = 'http://localhost:8080';

export async function renderOpenApi(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'slotline-openapi-'));
  const opened = await openContext(
    loadConfig({
      DATA_DIR: dataDir,
      PUBLIC_URL: DOCUMENT_PUBLIC_URL,
      SLOTLINE_SECRET: 'x'.repeat(32),
    }),
  );
  try {
    const app = await buildApp(opened.ctx);
    await app.ready();
    const doc = JSON.stringify(app.swagger(), null, 2) + '\n';
    await app.close();
    return doc;
  } finally {
    await opened.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
