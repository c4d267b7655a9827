// The console's "Your notifications" page through HTTP, on both databases: every operator
// kind by mail, on at first; choices and quiet hours saved in a timezone the operator picks
// (operators have no other), said in the notice and read by recipientsFor; an unknown
// timezone and a time that is not one refused beside their fields; each operator's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recipientsFor } from '../../../src/modules/notify/index.ts';
import { hidden } from '../../helpers/dashboard.ts';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { enrolledOperator } from '../../helpers/operator.ts';

const PAGE = '/operator/notifications';

describeEachDialect('console notifications', (get) => {
  test('listed, saved with quiet hours in the chosen timezone, refused in words', async () => {
    const t = get();
    const op = await enrolledOperator(t, 'Rita');
    const other = await enrolledOperator(t, 'Sam');
    const b = op.browser;
    const page = await b.get(PAGE);
    assert.equal(page.status, 200);
    assert.match(page.body, /aria-current="page">Your notifications<\/a>/);
    for (const kind of ['handoff-unclaimed', 'task-failed', 'account-disconnected']) {
      assert.match(
        page.body,
        new RegExp(`id="pref-${kind}-email" name="on" value="[a-z_]+:email" checked`),
      );
    }
    assert.match(page.body, /id="quiet-timezone" name="timezone" value="UTC"/);
    const csrf = hidden(page.body, '_csrf');

    const refused = await b.post(PAGE, {
      _csrf: csrf,
      on: 'task_failed:email',
      quiet: 'on',
      quietStart: '22:00',
      quietEnd: 'seven',
      timezone: 'Mars/Olympus',
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body, /2 things to fix before this can be saved/);
    assert.match(refused.body, /<a href="#quiet-end">Quiet until: “seven” is not a time of day/);
    assert.match(
      refused.body,
      /<a href="#quiet-timezone">Timezone: “Mars\/Olympus” is not a timezone this service knows/,
    );
    assert.match(refused.body, /id="quiet-timezone"[^>]*aria-invalid="true"/);

    const saved = await b.post(PAGE, {
      _csrf: csrf,
      on: ['task_failed:email', 'account_disconnected:email'],
      quiet: 'on',
      quietStart: '22:00',
      quietEnd: '07:00',
      timezone: 'America/New_York',
    });
    assert.equal(saved.status, 303);
    assert.equal(saved.location, PAGE);
    const after = await b.get(PAGE);
    assert.match(
      after.body,
      /Notification settings saved\. Quiet hours: 22:00 to 07:00, America\/New_York\./,
    );
    assert.match(after.body, /value="handoff_unclaimed:email" aria-labelledby/);
    assert.match(after.body, /id="quiet-timezone" name="timezone" value="America\/New_York"/);

    // 03:00 UTC is 22:00 in New York: Rita's mail waits for 07:00 there; Sam's goes now.
    const now = new Date('2026-03-03T03:00:00.000Z');
    const ask = (kind: string) =>
      recipientsFor(
        t.ctx.db,
        {
          audience: 'operator',
          ownerIds: [op.operatorId, other.operatorId],
          kind,
          channel: 'email',
        },
        now,
      );
    const failed = await ask('task_failed');
    assert.equal(failed.get(op.operatorId)?.toISOString(), '2026-03-03T12:00:00.000Z');
    assert.equal(failed.get(other.operatorId)?.toISOString(), now.toISOString());
    assert.deepEqual([...(await ask('handoff_unclaimed')).keys()], [other.operatorId]);
  });
});
