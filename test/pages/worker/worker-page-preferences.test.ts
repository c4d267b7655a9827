// The workers' app's notification choices through HTTP on both databases: the page lists the
// kinds a worker gets by push (all on at first), with quiet hours in the worker's own
// timezone; saving needs the session's CSRF token, says what was saved, and is what the
// release path reads; a time that is not one is refused beside its field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { browser, hidden, workerSignIn } from '../../helpers/dashboard.ts';
import { createWorker } from '../../../src/modules/workers/index.ts';
import { recipientsFor } from '../../../src/modules/notify/index.ts';

const PAGE = '/dashboard/worker/notifications';
const SAVE = '/dashboard/worker/notifications/preferences';

describeEachDialect('workers app notification choices', (get) => {
  test('listed, saved with quiet hours in the worker’s timezone, read by the release path', async () => {
    const t = get();
    const worker = await createWorker(t.ctx.db, t.ctx.clock, {
      name: 'Pia',
      timezone: 'Europe/Berlin',
    });
    const b = browser(t);
    assert.equal((await workerSignIn(b, worker.token)).status, 303);
    const page = await b.get(PAGE);
    assert.equal(page.status, 200);
    assert.match(page.body, /<h2 id="prefs-h">What you get<\/h2>/);
    for (const kind of ['task-released', 'report-due', 'handoff-unclaimed']) {
      assert.match(
        page.body,
        new RegExp(`id="pref-${kind}-push" name="on" value="[a-z_]+:push" checked`),
      );
    }
    assert.match(page.body, /In your timezone, <strong>Europe\/Berlin<\/strong>/);
    assert.match(
      page.body,
      /Reports due<\/span><br><span class="meta"[^>]*>[^<]* Comes during quiet hours too\./,
    );
    assert.doesNotMatch(page.body, /id="quiet-on"[^>]* checked/);
    const csrf = hidden(page.body, '_csrf');

    const forged = await b.post(SAVE, { on: 'report_due:push', quiet: 'on' });
    assert.equal(forged.status, 403);

    const saved = await b.post(SAVE, {
      _csrf: csrf,
      on: ['report_due:push', 'handoff_unclaimed:push'],
      quiet: 'on',
      quietStart: '22:00',
      quietEnd: '07:00',
    });
    assert.equal(saved.status, 303);
    assert.equal(saved.location, PAGE);
    const after = await b.get(PAGE);
    assert.match(
      after.body,
      /Notification settings saved\. Quiet hours: 22:00 to 07:00, Europe\/Berlin\./,
    );
    assert.match(
      after.body,
      /id="pref-task-released-push" name="on" value="task_released:push" aria-labelledby/,
    );
    assert.match(after.body, /id="quiet-on" name="quiet" value="on" checked/);
    // 23:30 UTC is 00:30 in Berlin: reports come now, new tasks would wait, but are off.
    const night = new Date('2026-03-02T23:30:00.000Z');
    const ask = (kind: string) =>
      recipientsFor(
        t.ctx.db,
        { audience: 'worker', ownerIds: [worker.workerId], kind, channel: 'push' },
        night,
      );
    assert.equal((await ask('task_released')).size, 0);
    assert.equal(
      (await ask('report_due')).get(worker.workerId)?.toISOString(),
      night.toISOString(),
    );
    assert.equal(
      (await ask('handoff_unclaimed')).get(worker.workerId)?.toISOString(),
      '2026-03-03T06:00:00.000Z',
    );
  });

  test('a time that is not one is refused beside its field; nothing is saved', async () => {
    const t = get();
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Ola', timezone: 'UTC' });
    const b = browser(t);
    assert.equal((await workerSignIn(b, worker.token)).status, 303);
    const csrf = hidden((await b.get(PAGE)).body, '_csrf');
    const bad = await b.post(SAVE, {
      _csrf: csrf,
      on: 'task_released:push',
      quiet: 'on',
      quietStart: '25:00',
      quietEnd: '25:00',
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body, /2 things to fix before this can be saved/);
    assert.match(
      bad.body,
      /<a href="#quiet-start">Quiet from: “25:00” is not a time of day; enter it as 22:00\.<\/a>/,
    );
    assert.match(
      bad.body,
      /id="quiet-start" name="quietStart" value="25:00"[^>]* aria-invalid="true"/,
    );
    assert.match(bad.body, /id="quiet-end-error"/);
    // What was sent stays on the form; the switches as sent.
    assert.match(
      bad.body,
      /id="pref-report-due-push" name="on" value="report_due:push" aria-labelledby/,
    );
    const same = await b.post(SAVE, {
      _csrf: csrf,
      on: 'task_released:push',
      quiet: 'on',
      quietStart: '08:00',
      quietEnd: '08:00',
    });
    assert.equal(same.status, 400);
    assert.match(same.body, /Quiet until: the same as the start/);
    const rows = await t.ctx.db
      .selectFrom('notify_opt_outs')
      .select('kind')
      .where('owner_id', '=', worker.workerId)
      .execute();
    assert.deepEqual(rows, []);
  });
});
