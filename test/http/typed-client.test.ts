// A client generated from the committed OpenAPI document is usable as users write it:
// the header is typed `Idempotency-Key` (not a lower-case spelling), the document names
// the service's public URL as its server, and the generated client works end to end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import createClient from 'openapi-fetch';
import { OPENAPI_PATH } from '../../scripts/openapi-document.ts';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany } from '../helpers/app.ts';
import { makeAccounts, readyUpload } from '../helpers/posts.ts';

/** Users' code against the generated types; each @ts-expect-error must be an error. */
const USAGE = `
import createClient from 'openapi-fetch';
import type { paths } from './api.ts';

const api = createClient<paths>({ baseUrl: 'http://localhost:8080' });

export function create(key: string) {
  return api.POST('/v2/posts', {
    params: { header: { 'Idempotency-Key': 'order-1' } },
    headers: { Authorization: \`Bearer \${key}\` },
    body: { media: ['upl_1'], accountIds: ['acc_1'], skipApproval: true },
  });
}

export function queue() {
  return api.POST('/v2/posts/{postId}/queue', {
    params: { path: { postId: 'pst_1' }, header: { 'Idempotency-Key': 'order-2' } },
    body: { accountIds: ['acc_1'] },
  });
}

export function lowerCase() {
  return api.POST('/v2/posts', {
    // @ts-expect-error the document names the header Idempotency-Key
    params: { header: { 'idempotency-key': 'order-1' } },
    body: { media: ['upl_1'], accountIds: ['acc_1'] },
  });
}
`;

test('a typed client generated from the document takes Idempotency-Key', async () => {
  const doc = JSON.parse(await readFile(OPENAPI_PATH, 'utf8'));
  const dir = join('.tmp', `typed-client-${process.pid}`);
  await mkdir(dir, { recursive: true });
  try {
    await writeFile(join(dir, 'api.ts'), astToString(await openapiTS(doc)));
    await writeFile(join(dir, 'usage.ts'), USAGE);
    const program = ts.createProgram([join(dir, 'usage.ts')], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2023,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      types: [],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    assert.deepEqual(problems, []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

describeEachDialect('the generated client against the service', (get) => {
  test('the served document names PUBLIC_URL as its server', async () => {
    const t = get();
    const res = await t.app.inject({ method: 'GET', url: '/v2/openapi.json' });
    assert.deepEqual(
      res.json().servers.map((s: { url: string }) => s.url),
      [t.config.publicUrl],
    );
  });

  test('Idempotency-Key sent by the generated client makes a repeat a replay', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [accountId] = await makeAccounts(call, 1);
    const uploadId = await readyUpload(t, call, 'h264-aac-faststart.mp4');
    const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const api = createClient({ baseUrl, headers: { Authorization: `Bearer ${co.key}` } });
    const send = () =>
      api.POST(
        '/v2/posts' as never,
        {
          params: { header: { 'Idempotency-Key': 'order-1' } },
          body: { media: [uploadId], accountIds: [accountId] },
        } as never,
      );
    const first = await send();
    const again = await send();
    assert.equal(first.response.status, 201);
    assert.equal(again.response.status, 200);
    const [a, b] = [first.data, again.data] as unknown as { postId: string }[];
    assert.equal(b?.postId, a?.postId);
  });
});
