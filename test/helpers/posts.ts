// Seeds what posts need: accounts and ready uploads of a company, through the API.
import assert from 'node:assert/strict';
import type { TestApp } from './app.ts';
import { client, validAccount } from './app.ts';
import { uploadFile } from './uploads.ts';
import { reportWorkerStatus, type WorkerStatus } from '../../src/modules/accounts/index.ts';

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

/**
 * Reports accounts as their worker would (DECISIONS 7), through the accounts module: nothing
 * is released to an account still `pending_setup`, so tests of releases start from `active`.
 */
export async function setAccountStatus(
  t: TestApp,
  accountIds: readonly string[],
  status: WorkerStatus = 'active',
): Promise<void> {
  const rows = await t.ctx.db
    .selectFrom('accounts')
    .select(['id', 'company_id'])
    .where('id', 'in', [...accountIds])
    .execute();
  assert.equal(rows.length, new Set(accountIds).size, 'every account exists');
  for (const r of rows) await reportWorkerStatus(t.ctx, r.company_id, r.id, status, undefined);
}

/** `n` accounts created through the API and reported `active`, ready for releases. */
export async function makeActiveAccounts(
  t: TestApp,
  call: CallFn,
  n: number,
  platform = 'platformA',
): Promise<string[]> {
  const ids = await makeAccounts(call, n, platform);
  await setAccountStatus(t, ids);
  return ids;
}
