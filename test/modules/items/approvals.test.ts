// Approval moves pending items to queued with approvedAt, or rejects them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany } from '../../helpers/app.ts';
import { makeAccounts, readyUpload } from '../../helpers/posts.ts';
import { ActionRefused } from '../../../src/lib/action-refused.ts';
import { approve, reject } from '../../../src/modules/items/items.service.ts';

describeEachDialect('approvals', (get) => {
  test('approve one account, then the rest; reject; nothing left to decide', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [a, b, c] = (await makeAccounts(call, 3)) as [string, string, string];
    const video = await readyUpload(t, call, 'h264-noaudio.mp4');
    const post = (await call('POST', '/v2/posts', { media: [video], accountIds: [a, b, c] })).body;
    assert.equal(post.status, 'pending_approval');

    t.clock.advance(60_000);
    const one = await approve(t.ctx, { postId: post.postId, accountId: a });
    assert.deepEqual(one.changed, [a]);
    assert.equal(one.postStatus, 'pending_approval');
    const got = (await call('GET', `/v2/posts/${post.postId}`)).body;
    const byId = Object.fromEntries(
      got.accounts.map((x: { accountId: string }) => [x.accountId, x]),
    );
    assert.equal(byId[a].status, 'queued');
    assert.equal(byId[a].approvedAt, t.clock.now().toISOString());
    assert.equal(byId[b].approvedAt, undefined);

    const rejected = await reject(t.ctx, { postId: post.postId, accountId: c });
    assert.deepEqual(rejected.changed, [c]);
    const rest = await approve(t.ctx, { postId: post.postId });
    assert.deepEqual(rest.changed, [b]);
    assert.equal(rest.postStatus, 'queued');
    await assert.rejects(approve(t.ctx, { postId: post.postId }), ActionRefused);
    await assert.rejects(approve(t.ctx, { postId: 'pst_nope' }), ActionRefused);
    const other = await seedCompany(t);
    await assert.rejects(
      approve(t.ctx, { postId: post.postId, companyId: other.companyId }),
      ActionRefused,
    );
  });
});
