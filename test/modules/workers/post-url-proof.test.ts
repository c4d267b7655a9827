// A worker's posted report names the post's URL, checked against the task's account and
// platform with the service's default patterns, on both databases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, validAccount } from '../../helpers/app.ts';
import { assertApiError } from '../../helpers/api-error.ts';
import { readyUpload } from '../../helpers/posts.ts';
import { releaseDue } from '../../../src/dispatch/dispatcher.ts';
import { assignAccounts, createWorker } from '../../../src/modules/workers/index.ts';

describeEachDialect(
  'post URLs of reports',
  (get) => {
    test('a URL of another account or platform, or of no post, is refused; the right one passes', async () => {
      const t = get();
      const day = '2026-05-11';
      t.clock.set(`${day}T10:00:00.000Z`);
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const made = await Promise.all(
        [
          validAccount({ platform: 'platformA', username: 'chef.anna' }),
          validAccount({ platform: 'platformB', username: 'chef.bea' }),
        ].map((body) => call('POST', '/v2/accounts', body)),
      );
      const [a, b] = made.map((r) => {
        assert.equal(r.status, 201, JSON.stringify(r.body));
        return r.body.accountId as string;
      }) as [string, string];
      const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'w', timezone: 'UTC' });
      await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [a, b]);
      const work = client(t, worker.token);
      for (const id of [a, b]) {
        const res = await work('PUT', `/worker/v1/accounts/${id}/status`, { status: 'active' });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      const upload = await readyUpload(t, call, 'image.png');
      const post = await call('POST', '/v2/posts', {
        media: [upload],
        accountIds: [a, b],
        skipApproval: true,
      });
      assert.equal(post.status, 201, JSON.stringify(post.body));
      t.clock.set(`${day}T11:00:00.000Z`);
      assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 2);
      const claimed = await work('POST', '/worker/v1/tasks/claim', { limit: 2 });
      const task = (accountId: string) =>
        claimed.body.data.find((x: any) => x.accountId === accountId).taskId as string;
      const report = (taskId: string, postUrl: string) =>
        work('POST', `/worker/v1/tasks/${taskId}/result`, { outcome: 'posted', postUrl });

      const wrongAccount = await report(task(a), 'https://platform-a.example/@other/video/1');
      assertApiError(wrongAccount, 400, 'invalid_request');
      assert.equal(
        wrongAccount.body.error.message,
        "/postUrl is a post of @other, not of this task's account @chef.anna",
      );
      assert.equal(
        wrongAccount.body.error.hint,
        'Send the address of the published post, like https://platform-a.example/@chef.anna/video/...',
      );
      const wrongPlatform = await report(task(a), 'https://platform-b.example/p/Cx1/');
      assertApiError(wrongPlatform, 400, 'invalid_request');
      assert.equal(
        wrongPlatform.body.error.message,
        "/postUrl is a platformB post, but this task's account @chef.anna is on platformA",
      );
      const nothing = await report(task(b), 'https://example.com/some/page');
      assertApiError(nothing, 400, 'invalid_request');
      assert.equal(nothing.body.error.message, '/postUrl is not the address of a platformB post');
      // Refusals leave the tasks open.
      const open = await work('GET', `/worker/v1/tasks/${task(a)}`);
      assert.equal(open.body.state, 'claimed');

      const right = await report(task(a), 'https://platform-a.example/@Chef.Anna/video/7001?s=1');
      assert.equal(right.status, 200, JSON.stringify(right.body));
      assert.equal(right.body.state, 'posted');
      const rightB = await report(task(b), 'https://platform-b.example/p/Cx1/');
      assert.equal(rightB.status, 200, JSON.stringify(rightB.body));
    });
  },
  { env: { POST_URL_PATTERN_PLATFORMA: '', POST_URL_PATTERN_PLATFORMB: '' } },
);
