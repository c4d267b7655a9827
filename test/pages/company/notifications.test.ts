// Your notifications (/dashboard/notifications) through HTTP, on both databases: linked from
// the account menu and Your settings; every kind by mail and push (the daily summary off and
// by mail only); quiet hours in the user's chosen timezone, else the browser's (saved with
// them); saving needs the CSRF token and says what was saved; bad times refused in words;
// what recipientsFor reads; each user's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recipientsFor } from '../../../src/modules/notify/index.ts';
import { seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn } from '../../helpers/dashboard.ts';
import { describeEachDialect } from '../../helpers/dialects.ts';

const PAGE = '/dashboard/notifications';
let ips = 0;

async function signedIn(t: TestApp, companyId: string) {
  const u = await userIn(t, companyId, 'editor');
  const b = browser(t, `198.51.100.${(++ips % 200) + 20}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  return { b, ...u };
}

describeEachDialect('dashboard notifications', (get) => {
  test('listed, saved with quiet hours in the browser’s zone, read by recipientsFor', async () => {
    const t = get();
    const co = await seedCompany(t);
    const me = await signedIn(t, co.companyId);
    const other = await signedIn(t, co.companyId);
    me.b.cookies.set('slotline_tz', encodeURIComponent('Europe/Berlin'));

    const page = await me.b.get(PAGE);
    assert.equal(page.status, 200);
    assert.match(page.body, /<h1>Your notifications<\/h1>/);
    assert.match(page.body, /aria-current="page">Your notifications<\/a>/);
    assert.match(
      page.body,
      /id="pref-approval-due-email" name="on" value="approval_due:email" checked/,
    );
    assert.match(
      page.body,
      /id="pref-approval-due-push" name="on" value="approval_due:push" checked/,
    );
    assert.match(
      page.body,
      /id="pref-daily-summary-email" name="on" value="daily_summary:email" aria-label/,
    );
    assert.match(page.body, /Not by push/);
    assert.match(page.body, /Off until you turn it on\./);
    assert.match(page.body, /In <strong>Europe\/Berlin<\/strong>, your browser’s timezone/);
    assert.match(
      (await me.b.get('/dashboard/settings')).body,
      /href="\/dashboard\/notifications">Your notifications<\/a>\./,
    );
    const csrf = hidden(page.body, '_csrf');

    const forged = await me.b.post(PAGE, { on: 'daily_summary:email' });
    assert.equal(forged.status, 403);

    const refused = await me.b.post(PAGE, {
      _csrf: csrf,
      on: ['daily_summary:email'],
      quiet: 'on',
      quietStart: '10pm',
      quietEnd: '07:00',
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body, /One thing to fix before this can be saved/);
    assert.match(
      refused.body,
      /<a href="#quiet-start">Quiet from: “10pm” is not a time of day; enter it as 22:00\.<\/a>/,
    );
    assert.match(
      refused.body,
      /id="pref-daily-summary-email" name="on" value="daily_summary:email" checked/,
    );

    const saved = await me.b.post(PAGE, {
      _csrf: csrf,
      on: [
        'approval_missed:email',
        'approval_missed:push',
        'daily_summary:email',
        'approval_due:email',
      ],
      quiet: 'on',
      quietStart: '22:00',
      quietEnd: '07:00',
    });
    assert.equal(saved.status, 303);
    assert.equal(saved.location, PAGE);
    const after = await me.b.get(PAGE);
    assert.match(
      after.body,
      /Notification settings saved\. Quiet hours: 22:00 to 07:00, Europe\/Berlin\./,
    );
    assert.match(after.body, /value="daily_summary:email" checked/);
    assert.match(after.body, /value="task_failed:email" aria-label/);

    // 23:30 UTC is 00:30 in Berlin.
    const night = new Date('2026-03-02T23:30:00.000Z');
    const ids = [me.user.userId, other.user.userId];
    const ask = (kind: string, channel: 'email' | 'push') =>
      recipientsFor(t.ctx.db, { audience: 'user', ownerIds: ids, kind, channel }, night);
    const due = await ask('approval_due', 'email');
    assert.equal(due.get(me.user.userId)?.toISOString(), '2026-03-03T06:00:00.000Z');
    assert.equal(due.get(other.user.userId)?.toISOString(), night.toISOString());
    assert.deepEqual([...(await ask('approval_due', 'push')).keys()], [other.user.userId]);
    assert.equal(
      (await ask('approval_missed', 'push')).get(me.user.userId)?.toISOString(),
      night.toISOString(),
    );
    assert.deepEqual([...(await ask('daily_summary', 'email')).keys()], [me.user.userId]);
    assert.equal((await ask('task_failed', 'email')).has(me.user.userId), false);

    // A timezone chosen in Your settings wins over the browser's.
    await t.ctx.db
      .updateTable('users')
      .set({ timezone: 'Asia/Tokyo' })
      .where('id', '=', me.user.userId)
      .execute();
    const chosen = await me.b.get(PAGE);
    assert.match(chosen.body, /In <strong>Asia\/Tokyo<\/strong>, the timezone you chose/);
  });
});
