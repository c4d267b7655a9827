// Approvals that know their deadline, on both databases with a real SMTP server and a fake
// clock: nothing is said while the window is further than the company's lead time; within
// it, the approvers (admins and editors, not viewers or disabled users) get one mail naming
// the waiting post and its window, once per item and window however many passes run; within
// 30 minutes the admins alone are told it will be missed; the mail's one-click unsubscribe
// (RFC 8058) stops that kind for that person only, and a forged link changes nothing. Quiet
// hours hold a reminder until they end, or drop it when they end after the window; the
// escalation goes through them.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  APPROVAL_PASS_MS,
  approvalDeadline,
  remindApprovals,
} from '../../src/dispatch/approval-reminders.ts';
import { dispatchPass } from '../../src/dispatch/loop.ts';
import { pendingApprovalItems } from '../../src/modules/items/index.ts';
import { savePreferences } from '../../src/modules/notify/index.ts';
import { disableUser } from '../../src/modules/users/index.ts';
import { client, seedCompany, type TestApp } from '../helpers/app.ts';
import { browser, hidden, signIn, userIn } from '../helpers/dashboard.ts';
import { describeEachDialect } from '../helpers/dialects.ts';
import { mailTo, recipients, startMailbox } from '../helpers/mail.ts';
import { makeActiveAccounts, readyUpload } from '../helpers/posts.ts';

const mailbox = await startMailbox();
after(() => mailbox.close());

async function waitingPost(t: TestApp, key: string, accountId: string, caption: string) {
  const call = client(t, key);
  const upload = await readyUpload(t, call, 'image.png');
  const post = await call('POST', '/v2/posts', {
    media: [upload],
    accountIds: [accountId],
    caption,
  });
  assert.equal(post.status, 201, JSON.stringify(post.body));
  return post.body.postId as string;
}

/** The deadline of the one waiting item of the post. */
async function deadlineOf(t: TestApp, postId: string): Promise<number> {
  const rows = await pendingApprovalItems(t.ctx.db, 100);
  const row = rows.find((r) => r.post_id === postId);
  assert.ok(row, 'the post has an item waiting for approval');
  return Date.parse(approvalDeadline(row, t.clock.now()));
}

function at(t: TestApp, ms: number) {
  t.clock.set(new Date(ms).toISOString());
  return t.clock.now();
}

describeEachDialect(
  'approval reminders',
  (get) => {
    test('reminded within the lead time, escalated within 30 minutes, each once', async () => {
      const t = get();
      t.clock.set('2031-06-02T00:30:00.000Z');
      const co = await seedCompany(t, { name: 'Harbour Deli' });
      const admin = await userIn(t, co.companyId, 'admin', 'ada@harbour.example');
      const editor = await userIn(t, co.companyId, 'editor', 'ed@harbour.example');
      await userIn(t, co.companyId, 'viewer', 'vi@harbour.example');
      const gone = await userIn(t, co.companyId, 'editor', 'gone@harbour.example');
      await disableUser(t.ctx.db, t.ctx.clock, gone.user.userId);
      const [accountId] = (await makeActiveAccounts(t, client(t, co.key), 1)) as [string];
      const username = (await client(t, co.key)('GET', `/v2/accounts/${accountId}`)).body
        .username as string;
      const postId = await waitingPost(t, co.key, accountId, 'Fresh bread at dawn');
      const deadline = await deadlineOf(t, postId);

      // Three hours before: outside the lead time of 2 hours.
      assert.deepEqual(await remindApprovals(t.ctx, at(t, deadline - 3 * 3_600_000)), {
        reminded: 0,
        escalated: 0,
      });
      assert.deepEqual(await mailbox.deliver(t), []);

      // 1 h 59 min before: the approvers are reminded, once.
      assert.deepEqual(await remindApprovals(t.ctx, at(t, deadline - 119 * 60_000)), {
        reminded: 1,
        escalated: 0,
      });
      assert.deepEqual(await remindApprovals(t.ctx, at(t, deadline - 100 * 60_000)), {
        reminded: 0,
        escalated: 0,
      });
      const reminders = await mailbox.deliver(t);
      assert.deepEqual(reminders.flatMap(recipients).sort(), [admin.email, editor.email]);
      const mail = mailTo(reminders, editor.email);
      assert.equal(mail.subject, '1 post waits for approval before its window · Harbour Deli');
      assert.match(mail.text ?? '', new RegExp(`@${username} \\(platformA\\), window `));
      assert.match(mail.text ?? '', /“Fresh bread at dawn”/);
      assert.match(mail.text ?? '', /http:\/\/slotline\.test\/dashboard\/approvals/);
      // mailparser reads List-Unsubscribe and List-Unsubscribe-Post into `list`.
      const list = mail.headers.get('list') as {
        unsubscribe?: { url?: string };
        'unsubscribe-post'?: { name?: string };
      };
      const unsubscribe = list.unsubscribe?.url;
      assert.ok(unsubscribe, 'the reminder carries List-Unsubscribe');
      assert.equal(list['unsubscribe-post']?.name, 'List-Unsubscribe=One-Click');

      // The inbox shows the same deadline, marked as due soon.
      const b = browser(t);
      assert.equal((await signIn(b, editor.email, editor.password)).status, 303);
      const inbox = await b.get('/dashboard/approvals');
      assert.match(
        inbox.body,
        new RegExp(`approve by <time datetime="${new Date(deadline).toISOString()}">`),
      );
      assert.match(inbox.body, /<span class="chip chip-due">Due soon<\/span>/);

      // 20 minutes before: the admins alone hear it will be missed.
      assert.deepEqual(await remindApprovals(t.ctx, at(t, deadline - 20 * 60_000)), {
        reminded: 0,
        escalated: 1,
      });
      const escalations = await mailbox.deliver(t);
      assert.deepEqual(escalations.flatMap(recipients), [admin.email]);
      assert.equal(
        escalations[0]?.subject,
        '1 post will miss its window without approval · Harbour Deli',
      );

      // The editor's one-click unsubscribe stops reminders for the editor only.
      const url = new URL(unsubscribe);
      const forged = await t.app.inject({
        method: 'POST',
        url: `${url.pathname}${url.search.replace(/signature=[^&]+/, 'signature=AAAA')}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      assert.equal(forged.statusCode, 404);
      assert.match(forged.body, /This link does not work/);
      const page = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /Stop these emails\?/);
      assert.match(page.body, /approvals due soon/);
      const oneClick = await t.app.inject({
        method: 'POST',
        url: `${url.pathname}${url.search}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      assert.equal(oneClick.statusCode, 200, oneClick.body);
      assert.match(oneClick.body, /Emails stopped/);

      // The next window of a new post: the admin is reminded, the editor no longer.
      const next = await waitingPost(t, co.key, accountId, 'Second batch');
      const nextDeadline = await deadlineOf(t, next);
      const result = await remindApprovals(t.ctx, at(t, nextDeadline - 90 * 60_000));
      assert.ok(result.reminded >= 1, JSON.stringify(result));
      const later = await mailbox.deliver(t);
      assert.ok(later.length > 0);
      assert.ok(later.every((m) => recipients(m).includes(admin.email)));
    });

    test('an admin sets the lead time on the schedule page; reminders follow it', async () => {
      const t = get();
      t.clock.set('2031-06-04T00:30:00.000Z');
      const co = await seedCompany(t, { name: 'Quay Cafe' });
      const admin = await userIn(t, co.companyId, 'admin', 'ada@quay.example');
      const editor = await userIn(t, co.companyId, 'editor', 'ed@quay.example');
      const [accountId] = (await makeActiveAccounts(t, client(t, co.key), 1)) as [string];
      const b = browser(t, '198.51.100.30');
      assert.equal((await signIn(b, admin.email, admin.password)).status, 303);
      const page = await b.get('/dashboard/schedule');
      assert.match(page.body, /<option value="120" selected>2 hours before the window<\/option>/);
      const csrf = hidden(page.body, '_csrf');
      const bad = await b.post('/dashboard/schedule/reminders', { _csrf: csrf, minutes: '7' });
      assert.equal(bad.status, 400);
      const saved = await b.post('/dashboard/schedule/reminders', { _csrf: csrf, minutes: '30' });
      assert.equal(saved.status, 303);
      assert.match(
        (await b.get('/dashboard/schedule')).body,
        /Approvers are now reminded 30 minutes before a waiting post’s window\./,
      );
      const e = browser(t, '198.51.100.31');
      assert.equal((await signIn(e, editor.email, editor.password)).status, 303);
      const theirs = await e.get('/dashboard/schedule');
      assert.match(theirs.body, /reminded <strong>30 minutes<\/strong> before the window/);
      const refused = await e.post('/dashboard/schedule/reminders', {
        _csrf: hidden(theirs.body, '_csrf'),
        minutes: '240',
      });
      assert.equal(refused.status, 403);

      const postId = await waitingPost(t, co.key, accountId, 'Lunch menu');
      const deadline = await deadlineOf(t, postId);
      // Other companies of this database are reminded too: count this company's mail only.
      const quay = async () =>
        (await mailbox.deliver(t))
          .flatMap(recipients)
          .filter((r) => r.endsWith('@quay.example'))
          .sort();
      await remindApprovals(t.ctx, at(t, deadline - 60 * 60_000));
      assert.deepEqual(await quay(), []);
      await remindApprovals(t.ctx, at(t, deadline - 29 * 60_000));
      // A reminder to each approver, and the admin's escalation.
      assert.deepEqual(await quay(), [admin.email, admin.email, editor.email]);
    });

    test('quiet hours hold a reminder, drop a stale one, and let the escalation through', async () => {
      const t = get();
      t.clock.set('2031-06-05T00:30:00.000Z');
      const co = await seedCompany(t, { name: 'Pier Bakery' });
      const admin = await userIn(t, co.companyId, 'admin', 'ada@pier.example');
      const editor = await userIn(t, co.companyId, 'editor', 'ed@pier.example');
      const [accountId] = (await makeActiveAccounts(t, client(t, co.key), 1)) as [string];
      const postId = await waitingPost(t, co.key, accountId, 'Rye');
      const deadline = await deadlineOf(t, postId);
      const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
      const remindAt = deadline - 119 * 60_000;
      const every = [
        'approval_due:email',
        'approval_due:push',
        'approval_missed:email',
        'approval_missed:push',
      ];
      // The admin's quiet hours end an hour later, the editor's after the window (UTC each):
      // the admin's reminder waits for their end, the editor's is not sent at all.
      const quiet = async (userId: string, endMs: number) =>
        savePreferences(
          t.ctx.db,
          'user',
          userId,
          {
            on: every,
            quiet: { start: hhmm(remindAt - 60_000), end: hhmm(endMs), timezone: 'UTC' },
          },
          t.clock.now(),
        );
      await quiet(admin.user.userId, remindAt + 60 * 60_000);
      await quiet(editor.user.userId, deadline + 10 * 60_000);
      const pier = () =>
        t.ctx.db
          .selectFrom('outbox_messages')
          .select(['recipient', 'kind', 'due_at'])
          .where('channel', '=', 'email')
          .where('recipient', 'like', '%@pier.example')
          .orderBy('kind')
          .execute();
      assert.ok((await remindApprovals(t.ctx, at(t, remindAt))).reminded >= 1);
      assert.deepEqual(await pier(), [
        {
          recipient: admin.email,
          kind: 'approval_due',
          due_at: new Date(remindAt + 3_600_000).toISOString(),
        },
      ]);
      // Within the admin's quiet hours still, the escalation goes at once.
      const escalateAt = deadline - 20 * 60_000;
      assert.ok((await remindApprovals(t.ctx, at(t, escalateAt))).escalated >= 1);
      const missed = (await pier()).find((r) => r.kind === 'approval_missed');
      assert.deepEqual(missed, {
        recipient: admin.email,
        kind: 'approval_missed',
        due_at: new Date(escalateAt).toISOString(),
      });
    });

    test('the dispatcher runs the pass at most once a minute', async () => {
      const t = get();
      t.clock.set('2031-06-03T00:30:00.000Z');
      const first = await dispatchPass(t.ctx, t.clock.now());
      assert.notEqual(first.approvals, null);
      const soon = await dispatchPass(t.ctx, new Date(t.clock.now().getTime() + 5_000));
      assert.equal(soon.approvals, null);
      const later = await dispatchPass(
        t.ctx,
        new Date(t.clock.now().getTime() + APPROVAL_PASS_MS + 1),
      );
      assert.notEqual(later.approvals, null);
    });
  },
  { env: mailbox.env },
);
