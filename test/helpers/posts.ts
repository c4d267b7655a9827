// Seeds what posts need: accounts and ready uploads of a company, through the API.
import assert from 'node:assert/strict';
import type { TestApp } from './app.ts';
import { client, validAccount } from './app.ts';
import { uploadFile } from './uploads.ts';

export type CallFn = ReturnType<typeof client>;

export async function makeAccounts(
  call: CallFn,
  n: number,
  platform = 'platformA',
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await call('POST', '/v2/accounts', validAccount({ platform }));
    assert.equal(r.status, 201, JSON.stringify(r.body));
    ids.push(r.body.accountId);
  }
  return ids;
}

export async function readyUpload(t: TestApp, call: CallFn, fixture: string): Promise<string> {
  const flow = await uploadFile(t, call, fixture);
  assert.equal(flow.complete.status, 200, JSON.stringify(flow.complete.body));
  return flow.uploadId;
}
