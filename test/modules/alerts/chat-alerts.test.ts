// Chat alerts through the outbox, on both databases, against a receiver on 127.0.0.1 that
// REMOTE_FETCH_ALLOW admits: a hook's URL is sealed at rest and only its masked form is
// read back; queueChatAlert writes a row only for the hooks of the alert's side that chose
// its kind, once per key; the sender POSTs {"text": ...} as JSON; 500 is tried again and
// then delivered; 410 fails the message and marks the hook failing (no more alerts until a
// test gets through); a removed hook fails its waiting rows; at most 10 hooks per side;
// a loopback receiver is refused without the allow list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_HOOKS,
  addChatHook,
  chatLink,
  chatText,
  getChatHook,
  listChatHooks,
  queueChatAlert,
  removeChatHook,
  sendTestAlert,
  type HookOwner,
} from '../../../src/modules/alerts/index.ts';
import { ADMIN_CLI } from '../../../src/modules/operators/index.ts';
import { parseAllowList } from '../../../src/media/remote-fetch.ts';
import { seedCompany, type TestApp } from '../../helpers/app.ts';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { deliverChat, queueAlert } from '../../helpers/chat-alerts.ts';
import { useReceiver } from '../../helpers/webhook-receiver.ts';

const START = '2026-03-02T10:00:00.000Z';

function companyOwner(companyId: string): HookOwner {
  return { companyId, actor: { id: 'user:usr_test', label: 'admin@example.com' } };
}
const OPERATORS: HookOwner = { companyId: null, actor: ADMIN_CLI };

async function rowsOf(t: TestApp, hookId: string) {
  return t.ctx.db
    .selectFrom('outbox_messages')
    .selectAll()
    .where('channel', '=', 'chat')
    .where('recipient', '=', hookId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

describeEachDialect(
  'chat alerts',
  (get) => {
    const rx = useReceiver(() => get().clock.set(START));
    const send = deliverChat;

    test('the URL is sealed; queueChatAlert writes rows only for the side’s hooks of the kind', async () => {
      const t = get();
      const a = await seedCompany(t, { name: 'Alpha & Co' });
      const b = await seedCompany(t, { name: 'Beta' });
      const url = `${rx().url}/T000/B000/secretXYZ9`;
      const all = await addChatHook(t.ctx, companyOwner(a.companyId), { label: '#ops', url });
      assert.deepEqual(all.kinds, [
        'approval_due',
        'approval_missed',
        'task_failed',
        'task_unconfirmed',
        'account_disconnected',
      ]);
      assert.equal(all.urlHint, `${new URL(rx().url).host} …XYZ9`);
      const summary = await addChatHook(t.ctx, companyOwner(a.companyId), {
        label: '#summary',
        url: `${rx().url}/summary`,
        kinds: ['daily_summary'],
      });
      const other = await addChatHook(t.ctx, companyOwner(b.companyId), {
        label: '#beta',
        url: `${rx().url}/beta`,
      });
      const ops = await addChatHook(t.ctx, OPERATORS, { label: '#staff', url: `${rx().url}/ops` });
      assert.deepEqual(ops.kinds, ['handoff_unclaimed', 'task_failed', 'account_disconnected']);

      const stored = await t.ctx.db
        .selectFrom('chat_hooks')
        .selectAll()
        .where('id', '=', all.hookId)
        .executeTakeFirstOrThrow();
      assert.ok(!stored.url_sealed.includes('secretXYZ9'), 'the URL is sealed');
      assert.equal(t.ctx.sealer.open(stored.url_sealed), url);
      assert.ok(!JSON.stringify(all).includes('secretXYZ9'), 'the hook as read has no URL');

      const text = chatText`Post “${'Spring <sale>'}” failed: ${chatLink('https://slotline.test/dashboard/posts/pst_1', 'open it')}`;
      const written = await queueAlert(t, {
        companyId: a.companyId,
        kind: 'task_failed',
        text,
        dedupeKey: 'failed:tsk_1',
      });
      assert.equal(written, 1, 'only #ops chose task_failed in Alpha');
      const again = await queueAlert(t, {
        companyId: a.companyId,
        kind: 'task_failed',
        text,
        dedupeKey: 'failed:tsk_1',
      });
      assert.equal(again, 0, 'once per key and hook');
      assert.equal((await rowsOf(t, summary.hookId)).length, 0);
      assert.equal((await rowsOf(t, other.hookId)).length, 0, 'never another company’s hook');
      assert.equal((await rowsOf(t, ops.hookId)).length, 0, 'nor the operator side’s');
      const opsWritten = await queueAlert(t, {
        companyId: null,
        kind: 'handoff_unclaimed',
        text: 'Task <x> not claimed',
        dedupeKey: 'h:1',
      });
      assert.equal(opsWritten, 1);
      await assert.rejects(
        queueAlert(t, { companyId: null, kind: 'daily_summary', text: 'x', dedupeKey: 'h:2' }),
        RangeError,
      );
      // A rollback writes nothing.
      await assert.rejects(
        t.ctx.db.transaction().execute(async (tx) => {
          await queueChatAlert(
            tx,
            { companyId: a.companyId, kind: 'task_failed', text: 'x', dedupeKey: 'rolled' },
            t.clock.now(),
          );
          throw new Error('the cause rolled back');
        }),
      );
      assert.equal((await rowsOf(t, all.hookId)).length, 1);

      await send(t);
      const got = rx().received.filter((r) => r.path.endsWith('/secretXYZ9'));
      assert.equal(got.length, 1);
      assert.match(String(got[0]?.headers['content-type']), /^application\/json/);
      assert.deepEqual(JSON.parse(got[0]?.body ?? ''), {
        text: 'Post “Spring &lt;sale&gt;” failed: <https://slotline.test/dashboard/posts/pst_1|open it>',
      });
      const opsGot = rx().received.filter((r) => r.path.endsWith('/ops'));
      assert.deepEqual(JSON.parse(opsGot[0]?.body ?? ''), { text: 'Task &lt;x&gt; not claimed' });
      const [row] = await rowsOf(t, all.hookId);
      assert.equal(row?.status, 'sent');
      assert.equal(row?.company_id, a.companyId);
      assert.equal(row?.subject, 'Post failed');
      assert.equal((await getChatHook(t.ctx.db, a.companyId, all.hookId)).state, 'ok');
    });

    test('500 is tried again and then delivered; 410 marks the hook failing', async () => {
      const t = get();
      const co = await seedCompany(t);
      const flaky = await addChatHook(t.ctx, companyOwner(co.companyId), {
        label: 'flaky',
        url: `${rx().url}/flaky`,
      });
      const gone = await addChatHook(t.ctx, companyOwner(co.companyId), {
        label: 'gone',
        url: `${rx().url}/gone`,
      });
      let flakyCalls = 0;
      rx().answer = (r) => {
        if (r.path.endsWith('/gone')) return { status: 410, body: 'channel_is_archived' };
        flakyCalls += 1;
        return flakyCalls === 1 ? 500 : 200;
      };
      await queueAlert(t, {
        companyId: co.companyId,
        kind: 'approval_due',
        text: 'Due soon',
        dedupeKey: 'due:1',
      });
      await send(t);
      const [waiting] = await rowsOf(t, flaky.hookId);
      assert.equal(waiting?.status, 'waiting');
      assert.equal(waiting?.attempts, 1);
      assert.equal(waiting?.last_error, 'the receiver answered 500');
      const [failed] = await rowsOf(t, gone.hookId);
      assert.equal(failed?.status, 'failed', '410 is not tried again');
      const hook = await getChatHook(t.ctx.db, co.companyId, gone.hookId);
      assert.equal(hook.state, 'failing');
      assert.equal(hook.lastError, 'the receiver answered 410');
      assert.equal(hook.failingSince, START);

      t.clock.advance(60_000);
      await send(t);
      const [sent] = await rowsOf(t, flaky.hookId);
      assert.equal(sent?.status, 'sent');
      assert.equal(sent?.attempts, 2);
      assert.equal(flakyCalls, 2);

      // A failing hook gets no alerts; a test still goes, and its delivery clears the state.
      const more = await queueAlert(t, {
        companyId: co.companyId,
        kind: 'approval_due',
        text: 'Due soon',
        dedupeKey: 'due:2',
      });
      assert.equal(more, 1, 'only the hook that works');
      rx().answer = () => 200;
      await sendTestAlert(t.ctx, companyOwner(co.companyId), gone.hookId);
      await send(t);
      const back = await getChatHook(t.ctx.db, co.companyId, gone.hookId);
      assert.equal(back.state, 'ok');
      assert.equal(back.failingSince, null);
    });

    test('tests name the company and kinds, once a minute; removal fails waiting rows', async () => {
      const t = get();
      const co = await seedCompany(t, { name: 'Gamma <Studio>' });
      const hook = await addChatHook(t.ctx, companyOwner(co.companyId), {
        label: '#gamma',
        url: `${rx().url}/gamma`,
        kinds: ['task_failed', 'daily_summary'],
      });
      await sendTestAlert(t.ctx, companyOwner(co.companyId), hook.hookId);
      await assert.rejects(sendTestAlert(t.ctx, companyOwner(co.companyId), hook.hookId), {
        name: 'ChatHookError',
        code: 'test_too_soon',
      });
      await send(t);
      const [got] = rx().received.filter((r) => r.path.endsWith('/gamma'));
      assert.deepEqual(JSON.parse(got?.body ?? ''), {
        text: 'Test alert from Slotline for Gamma &lt;Studio&gt;: alerts of kinds Post failed, Daily summary will arrive here.',
      });
      const [row] = await rowsOf(t, hook.hookId);
      assert.equal(row?.kind, 'chat_test');
      const log = await t.ctx.db
        .selectFrom('activity_log')
        .select(['action', 'target', 'detail'])
        .where('company_id', '=', co.companyId)
        .orderBy('at')
        .execute();
      assert.deepEqual(
        log.map((e) => e.action),
        ['chat_hook.added', 'chat_hook.test_sent'],
      );
      assert.ok(
        log.every((e) => !`${e.target}${e.detail}`.includes('/gamma')),
        'no URL logged',
      );

      t.clock.advance(60_000);
      await sendTestAlert(t.ctx, companyOwner(co.companyId), hook.hookId);
      await removeChatHook(t.ctx, companyOwner(co.companyId), hook.hookId);
      await send(t);
      const rows = await rowsOf(t, hook.hookId);
      assert.equal(rows[1]?.status, 'failed');
      assert.equal(rows[1]?.last_error, 'the chat alert hook was removed');
      await assert.rejects(getChatHook(t.ctx.db, co.companyId, hook.hookId), {
        code: 'hook_not_found',
      });
    });

    test('another side’s hook is not found; at most 10 hooks per side', async () => {
      const t = get();
      const a = await seedCompany(t);
      const b = await seedCompany(t);
      const hook = await addChatHook(t.ctx, companyOwner(a.companyId), {
        label: 'a',
        url: `${rx().url}/a`,
      });
      for (const owner of [companyOwner(b.companyId), OPERATORS]) {
        await assert.rejects(getChatHook(t.ctx.db, owner.companyId, hook.hookId), {
          code: 'hook_not_found',
        });
        await assert.rejects(sendTestAlert(t.ctx, owner, hook.hookId), { code: 'hook_not_found' });
        await assert.rejects(removeChatHook(t.ctx, owner, hook.hookId), {
          code: 'hook_not_found',
        });
      }
      assert.equal((await listChatHooks(t.ctx.db, b.companyId)).length, 0);
      for (let i = 1; i < MAX_HOOKS; i += 1) {
        await addChatHook(t.ctx, companyOwner(a.companyId), {
          label: `h${i}`,
          url: `${rx().url}/${i}`,
        });
      }
      await assert.rejects(
        addChatHook(t.ctx, companyOwner(a.companyId), { label: 'one more', url: `${rx().url}/x` }),
        { code: 'hook_limit_reached' },
      );
      await addChatHook(t.ctx, companyOwner(b.companyId), { label: 'b', url: `${rx().url}/b` });
      // Every problem of a form at once.
      await assert.rejects(
        addChatHook(t.ctx, companyOwner(b.companyId), { label: '', url: 'ftp://x', kinds: [] }),
        (err: { problems: { code: string }[] }) => {
          assert.deepEqual(
            err.problems.map((p) => p.code),
            ['label_required', 'url_invalid', 'kinds_required'],
          );
          return true;
        },
      );
    });

    test('a receiver on a private address is refused without REMOTE_FETCH_ALLOW', async () => {
      const t = get();
      const co = await seedCompany(t);
      const hook = await addChatHook(t.ctx, companyOwner(co.companyId), {
        label: 'loop',
        url: `${rx().url}/loop`,
      });
      await sendTestAlert(t.ctx, companyOwner(co.companyId), hook.hookId);
      await send(t, parseAllowList(''));
      assert.equal(rx().received.length, 0, 'nothing reached the private address');
      const [row] = await rowsOf(t, hook.hookId);
      assert.equal(row?.status, 'failed');
    });
  },
  { env: { REMOTE_FETCH_ALLOW: '127.0.0.1' } },
);
