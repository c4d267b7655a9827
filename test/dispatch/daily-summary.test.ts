// The daily summary, on both databases with a fake clock and a chat receiver: off unless a
// company's hook chose it; once the company's day reaches 08:00 in its timezone, yesterday's
// deliveries (posted, on time, failed) and what waits today go to that hook, once per local
// day however many passes run, and to nobody by mail; by mail only to the admins and
// editors who turned it on, in a company with no hook at all.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { sendDailySummaries } from '../../src/dispatch/daily-summary.ts';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import { addChatHook } from '../../src/modules/alerts/index.ts';
import { savePreferences } from '../../src/modules/notify/index.ts';
import { assignAccounts, createWorker } from '../../src/modules/workers/index.ts';
import { client, seedCompany, type TestApp } from '../helpers/app.ts';
import { userIn } from '../helpers/dashboard.ts';
import { describeEachDialect } from '../helpers/dialects.ts';
import { startMailbox } from '../helpers/mail.ts';
import { makeActiveAccounts, readyUpload } from '../helpers/posts.ts';
import { deliverChat } from '../helpers/chat-alerts.ts';
import { useReceiver } from '../helpers/webhook-receiver.ts';

const mailbox = await startMailbox();
after(() => mailbox.close());

function at(t: TestApp, iso: string): Date {
  t.clock.set(iso);
  return t.clock.now();
}

describeEachDialect(
  'daily summary',
  (get) => {
    const rx = useReceiver();

    test('yesterday and today go to the hooks that chose it, once a local day', async () => {
      const t = get();
      t.clock.set('2026-03-10T06:30:00.000Z');
      const co = await seedCompany(t, { name: 'Dune Bakery' });
      await t.ctx.db
        .updateTable('companies')
        .set({ default_timezone: 'Europe/Berlin' })
        .where('id', '=', co.companyId)
        .execute();
      await userIn(t, co.companyId, 'admin', 'ada@dune.example');
      const owner = { companyId: co.companyId, actor: { id: 'user:x', label: 'ada@dune.example' } };
      await addChatHook(t.ctx, owner, {
        label: '#daily',
        url: `${rx().url}/daily`,
        kinds: ['daily_summary'],
      });
      // A hook with the default kinds: no summary.
      await addChatHook(t.ctx, owner, { label: '#all', url: `${rx().url}/all` });
      const call = client(t, co.key);
      const [one, two] = (await makeActiveAccounts(t, call, 2)) as [string, string];
      const worker = await createWorker(t.ctx.db, t.ctx.clock, {
        name: 'Pia',
        timezone: 'Europe/Berlin',
      });
      await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [one, two]);
      const work = client(t, worker.token);
      const made = await call('POST', '/v2/posts', {
        media: [await readyUpload(t, call, 'image.png')],
        accountIds: [one, two],
        skipApproval: true,
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      // 08:00 in Berlin: both released; one posted at once, one failed.
      assert.equal((await releaseDue(t.ctx, at(t, '2026-03-10T07:00:30.000Z'))).released, 2);
      const username = (await call('GET', `/v2/accounts/${one}`)).body.username as string;
      const claimOf = async (accountId: string) =>
        (await work('POST', '/worker/v1/tasks/claim', { accountId })).body.data[0].taskId as string;
      const posted = await work('POST', `/worker/v1/tasks/${await claimOf(one)}/result`, {
        outcome: 'posted',
        postUrl: `https://platform-a.example/@${username}/video/123`,
      });
      assert.equal(posted.status, 200, JSON.stringify(posted.body));
      const failed = await work('POST', `/worker/v1/tasks/${await claimOf(two)}/result`, {
        outcome: 'failed',
        reason: 'Locked',
      });
      assert.equal(failed.status, 200, JSON.stringify(failed.body));
      // Another post waits for approval.
      await call('POST', '/v2/posts', {
        media: [await readyUpload(t, call, 'image.png')],
        accountIds: [one],
      });
      await mailbox.deliver(t);
      const send = () => deliverChat(t);
      await send();
      rx().received.length = 0;

      // 07:59 the next day in Berlin: not yet; 08:01: once.
      assert.equal(await sendDailySummaries(t.ctx, at(t, '2026-03-11T06:59:00.000Z')), 0);
      assert.equal(await sendDailySummaries(t.ctx, at(t, '2026-03-11T07:01:00.000Z')), 1);
      assert.equal(await sendDailySummaries(t.ctx, at(t, '2026-03-11T09:00:00.000Z')), 0);
      await send();
      assert.deepEqual(
        rx().received.map((r) => r.path),
        ['/hooks/daily'],
      );
      const text = (JSON.parse(rx().received[0]?.body ?? '{}') as { text: string }).text;
      assert.match(text, /\*Daily summary for Dune Bakery\*/);
      assert.match(
        text,
        /Yesterday: 2 released, 1 posted \(1 on time, 100%\), 1 failed, 0 not confirmed\./,
      );
      assert.match(text, /Today: 0 queued, 1 awaiting approval\./);
      assert.deepEqual(await mailbox.deliver(t), [], 'no mail: nobody turned the summary on');
    });

    test('mailed only to the people who turned it on, with no hook at all', async () => {
      const t = get();
      t.clock.set('2026-03-10T06:30:00.000Z');
      const co = await seedCompany(t, { name: 'Quay Coffee' });
      const ada = await userIn(t, co.companyId, 'admin', 'ada@quay.example');
      await userIn(t, co.companyId, 'editor', 'eve@quay.example');
      const other = await seedCompany(t, { name: 'Other' });
      await userIn(t, other.companyId, 'admin', 'oli@other.example');
      // Other tests' companies may be told too: only the mail of this one counts here.
      await sendDailySummaries(t.ctx, at(t, '2026-03-20T08:01:00.000Z'));
      assert.deepEqual(await mailbox.deliver(t), [], 'nobody turned it on yet');
      await savePreferences(
        t.ctx.db,
        'user',
        ada.user.userId,
        { on: ['daily_summary:email'], quiet: null },
        t.clock.now(),
      );
      assert.ok((await sendDailySummaries(t.ctx, at(t, '2026-03-20T08:02:00.000Z'))) >= 1);
      assert.equal(await sendDailySummaries(t.ctx, at(t, '2026-03-20T09:00:00.000Z')), 0);
      const mails = await mailbox.deliver(t);
      assert.deepEqual(
        mails.map((m) => (m.to && !Array.isArray(m.to) ? m.to.text : '')),
        ['ada@quay.example'],
        'only the one who turned it on; never another company',
      );
      const [mail] = mails;
      assert.match(mail?.subject ?? '', /^Daily summary · Quay Coffee · 2026-03-19$/);
      assert.match(mail?.text ?? '', /Yesterday \(2026-03-19\): nothing was released\./);
      assert.match(mail?.text ?? '', /Today: 0 queued for a window, 0 awaiting approval\./);
      // One click on its List-Unsubscribe turns the summary off again: no mail the next day.
      const list = mail?.headers.get('list') as { unsubscribe?: { url?: string } } | undefined;
      const url = new URL(list?.unsubscribe?.url ?? '');
      const oneClick = await t.app.inject({
        method: 'POST',
        url: `${url.pathname}${url.search}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      assert.equal(oneClick.statusCode, 200);
      await sendDailySummaries(t.ctx, at(t, '2026-03-21T08:01:00.000Z'));
      assert.deepEqual(await mailbox.deliver(t), [], 'turned off from the mail');
    });
  },
  { env: { ...mailbox.env, REMOTE_FETCH_ALLOW: '127.0.0.1' } },
);
