// The calendar page: a week of slots per account with planned and released items, why an
// account gets nothing, and priority changes by editors only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany } from '../helpers/app.ts';
import { browser, hidden, signIn, userIn } from '../helpers/dashboard.ts';
import { makeActiveAccounts, readyUpload } from '../helpers/posts.ts';
import { companyWeek } from '../../src/modules/queue/calendar.service.ts';

describeEachDialect('dashboard calendar', (get) => {
  test('planned items sit in their slot; paused accounts say why; editors set priority', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [a, b] = (await makeActiveAccounts(t, call, 2)) as [string, string];
    const video = await readyUpload(t, call, 'h264-noaudio.mp4');
    const post = (
      await call('POST', '/v2/posts', { media: [video], accountIds: [a], skipApproval: true })
    ).body;
    assert.equal((await call('POST', `/v2/accounts/${b}/pause`)).status, 200);

    const weeks = await companyWeek(t.ctx, co.companyId, t.clock.now());
    const wa = weeks.find((w) => w.accountId === a);
    const wb = weeks.find((w) => w.accountId === b);
    assert.ok(wa && wb);
    assert.equal(wa.days.length, 7);
    assert.equal(wa.blocked, null);
    assert.equal(wb.blocked, 'paused by the company');
    const queue = (await call('GET', `/v2/accounts/${a}/queue`)).body.data;
    const planned = wa.days
      .flatMap((d) => d.slots)
      .find((s) => s.items.some((i) => i.postId === post.postId));
    assert.ok(planned, 'the post is planned in a slot');
    assert.equal(planned.start, queue[0].scheduledSlotStart);

    const viewer = await userIn(t, co.companyId, 'viewer');
    const vb = browser(t, '198.51.100.1');
    await signIn(vb, viewer.email, viewer.password);
    const page = await vb.get('/dashboard/calendar');
    assert.equal(page.status, 200);
    assert.match(page.body, /paused by the company/);
    const itemId = queue[0].queueItemId as string;
    const refused = await vb.post(`/dashboard/items/${itemId}/priority`, {
      _csrf: hidden(page.body, '_csrf'),
      priority: '5',
    });
    assert.equal(refused.status, 403);

    const editor = await userIn(t, co.companyId, 'editor');
    const eb = browser(t, '198.51.100.2');
    await signIn(eb, editor.email, editor.password);
    const own = await eb.get(`/dashboard/calendar?account=${a}`);
    assert.match(own.body, new RegExp(`name="priority" type="number" min="0" step="1" value="0"`));
    const set = await eb.post(`/dashboard/items/${itemId}/priority`, {
      _csrf: hidden(own.body, '_csrf'),
      priority: '7',
    });
    assert.equal(set.status, 303);
    const again = await companyWeek(t.ctx, co.companyId, t.clock.now(), a);
    const moved7 = again[0]?.days.flatMap((d) => d.slots.flatMap((s) => s.items));
    assert.equal(moved7?.find((i) => i.queueItemId === itemId)?.priority, 7);
    const bad = await eb.post(`/dashboard/items/${itemId}/priority`, {
      _csrf: hidden(own.body, '_csrf'),
      priority: '-1',
    });
    assert.equal(bad.status, 400);

    const other = await seedCompany(t);
    const stranger = await userIn(t, other.companyId, 'admin');
    const sb = browser(t, '198.51.100.3');
    await signIn(sb, stranger.email, stranger.password);
    const theirs = await sb.get('/dashboard/calendar');
    const foreign = await sb.get(`/dashboard/calendar?account=${a}`);
    assert.equal(foreign.status, 404);
    assert.equal((await sb.get('/dashboard/calendar?account=acc_unknown')).status, 404);
    const moved = await sb.post(`/dashboard/items/${itemId}/priority`, {
      _csrf: hidden(theirs.body, '_csrf'),
      priority: '1',
    });
    assert.equal(moved.status, 404);
  });
});
