// A suspended company's queued posts wait: nothing of it is released until it is resumed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany } from '../helpers/app.ts';
import { makeActiveAccounts, readyUpload } from '../helpers/posts.ts';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import { setCompanySuspended } from '../../src/modules/companies/index.ts';
import { assignAccounts, createWorker } from '../../src/modules/workers/index.ts';

describeEachDialect('releases of a suspended company', (get) => {
  test('wait while it is suspended and go out once it is resumed', async () => {
    const t = get();
    const day = '2026-09-07';
    t.clock.set(`${day}T10:00:00.000Z`);
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [account] = await makeActiveAccounts(t, call, 1);
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'W', timezone: 'UTC' });
    await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [account as string]);
    const upload = await readyUpload(t, call, 'image.png');
    const post = await call('POST', '/v2/posts', {
      media: [upload],
      accountIds: [account],
      skipApproval: true,
    });
    assert.equal(post.status, 201, JSON.stringify(post.body));
    await setCompanySuspended(t.ctx.db, t.ctx.clock, co.companyId, true);
    t.clock.set(`${day}T11:00:00.000Z`);
    await releaseDue(t.ctx, t.clock.now());
    const status = async () =>
      (
        await t.ctx.db
          .selectFrom('queue_items')
          .select('status')
          .where('post_id', '=', post.body.postId)
          .executeTakeFirstOrThrow()
      ).status;
    assert.equal(await status(), 'queued');
    await setCompanySuspended(t.ctx.db, t.ctx.clock, co.companyId, false);
    t.clock.set(`${day}T11:05:00.000Z`);
    await releaseDue(t.ctx, t.clock.now());
    assert.equal(await status(), 'posting');
  });
});
