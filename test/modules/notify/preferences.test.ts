// Preferences in the database, on both databases: recipientsFor answers who takes a kind on
// a channel and when (default-on kinds minus opt-outs, default-off kinds only for opt-ins,
// quiet hours in each owner's own timezone, urgent kinds through them), for a few owners or
// thousands in two queries per thousand; the pages' choices round-trip, and an unsubscribe
// link's opt-out shows as a switch turned off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  optOut,
  preferencesOf,
  recipientsFor,
  savePreferences,
} from '../../../src/modules/notify/index.ts';
import { createWorker } from '../../../src/modules/workers/index.ts';
import { seedCompany } from '../../helpers/app.ts';
import { userIn } from '../../helpers/dashboard.ts';
import { describeEachDialect } from '../../helpers/dialects.ts';

// 23:30 UTC: 00:30 in Berlin, 18:30 in New York.
const NOW = new Date('2026-03-02T23:30:00.000Z');
const NIGHT = { start: '22:00', end: '07:00', timezone: null };

const iso = (m: Map<string, Date>) =>
  Object.fromEntries([...m].map(([k, v]) => [k, v.toISOString()]));

describeEachDialect('notification preferences', (get) => {
  test('workers: on by default, off when turned off, held through their own night', async () => {
    const t = get();
    const db = t.ctx.db;
    const berlin = await createWorker(db, t.ctx.clock, { name: 'Pia', timezone: 'Europe/Berlin' });
    const york = await createWorker(db, t.ctx.clock, { name: 'Ned', timezone: 'America/New_York' });
    const quiet = await createWorker(db, t.ctx.clock, { name: 'Ola', timezone: 'UTC' });
    const ids = [berlin.workerId, york.workerId, quiet.workerId];
    const ask = (kind: string) =>
      recipientsFor(db, { audience: 'worker', ownerIds: ids, kind, channel: 'push' }, NOW);

    assert.deepEqual(iso(await ask('task_released')), {
      [berlin.workerId]: NOW.toISOString(),
      [york.workerId]: NOW.toISOString(),
      [quiet.workerId]: NOW.toISOString(),
    });

    // Berlin and New York both keep 22:00-07:00, each in their own zone; Ola turns tasks off.
    for (const w of [berlin, york]) {
      await savePreferences(
        db,
        'worker',
        w.workerId,
        { on: ['task_released:push', 'report_due:push', 'handoff_unclaimed:push'], quiet: NIGHT },
        NOW,
      );
    }
    await savePreferences(
      db,
      'worker',
      quiet.workerId,
      { on: ['report_due:push'], quiet: null },
      NOW,
    );
    assert.deepEqual(iso(await ask('task_released')), {
      [berlin.workerId]: '2026-03-03T06:00:00.000Z', // 07:00 in Berlin
      [york.workerId]: NOW.toISOString(), // 18:30 there: not quiet
    });
    // Urgent kinds go through quiet hours; a kind not on this channel reaches nobody.
    assert.deepEqual(iso(await ask('report_due')), {
      [berlin.workerId]: NOW.toISOString(),
      [york.workerId]: NOW.toISOString(),
      [quiet.workerId]: NOW.toISOString(),
    });
    const mail = await recipientsFor(
      db,
      { audience: 'worker', ownerIds: ids, kind: 'task_released', channel: 'email' },
      NOW,
    );
    assert.equal(mail.size, 0);
    // A kind the catalogue does not list (a test push) is on and waits for nobody's night.
    assert.equal(
      (await ask('push_test')).get(berlin.workerId)?.toISOString(),
      '2026-03-03T06:00:00.000Z',
    );
    assert.equal(
      (
        await recipientsFor(
          db,
          { audience: 'worker', ownerIds: ids, kind: 'push_test', channel: 'push', urgent: true },
          NOW,
        )
      )
        .get(berlin.workerId)
        ?.toISOString(),
      NOW.toISOString(),
    );
  });

  test('users: default-off kinds need an opt-in; an unsubscribe link turns a switch off', async () => {
    const t = get();
    const db = t.ctx.db;
    const co = await seedCompany(t);
    const a = (await userIn(t, co.companyId, 'admin')).user;
    const b = (await userIn(t, co.companyId, 'editor')).user;
    const ids = [a.userId, b.userId];
    const summary = () =>
      recipientsFor(
        db,
        { audience: 'user', ownerIds: ids, kind: 'daily_summary', channel: 'email' },
        NOW,
      );
    assert.equal((await summary()).size, 0);

    const before = await preferencesOf(db, 'user', a.userId);
    assert.deepEqual(
      before.kinds.map((k) => [k.kind, k.on.email, k.on.push]),
      [
        ['approval_due', true, true],
        ['approval_missed', true, true],
        ['task_failed', true, true],
        ['task_unconfirmed', true, true],
        ['account_disconnected', true, true],
        ['daily_summary', false, false],
      ],
    );
    assert.equal(before.quiet, null);

    await savePreferences(
      db,
      'user',
      a.userId,
      {
        on: ['approval_due:push', 'daily_summary:email', 'daily_summary:push', 'bogus:email'],
        quiet: { start: '12:00', end: '13:00', timezone: 'Asia/Tokyo' },
      },
      NOW,
    );
    assert.deepEqual([...(await summary()).keys()], [a.userId]);
    const after = await preferencesOf(db, 'user', a.userId);
    assert.deepEqual(
      after.kinds
        .filter((k) => k.on.email || k.on.push)
        .map((k) => [k.kind, k.on.email, k.on.push]),
      [
        ['approval_due', false, true],
        ['daily_summary', true, false],
      ],
    );
    assert.deepEqual(after.quiet, { start: '12:00', end: '13:00', timezone: 'Asia/Tokyo' });
    const due = await recipientsFor(
      db,
      { audience: 'user', ownerIds: ids, kind: 'approval_due', channel: 'email' },
      NOW,
    );
    assert.deepEqual([...due.keys()], [b.userId]);

    // The unsubscribe link's opt-out is the page's switch turned off.
    await optOut(db, { audience: 'user', ownerId: b.userId, kind: 'task_failed' }, NOW);
    const bs = await preferencesOf(db, 'user', b.userId);
    assert.deepEqual(bs.kinds.find((k) => k.kind === 'task_failed')?.on, {
      email: false,
      push: true,
    });
    // Equal ends save as no quiet hours.
    await savePreferences(
      db,
      'user',
      b.userId,
      { on: [], quiet: { start: '09:00', end: '09:00', timezone: null } },
      NOW,
    );
    assert.equal((await preferencesOf(db, 'user', b.userId)).quiet, null);
  });

  test('users without a timezone of their own: the saved zone, else UTC; operators too', async () => {
    const t = get();
    const db = t.ctx.db;
    const co = await seedCompany(t);
    const u = (await userIn(t, co.companyId, 'viewer')).user;
    await savePreferences(
      db,
      'user',
      u.userId,
      { on: ['task_failed:email'], quiet: { ...NIGHT, timezone: 'America/New_York' } },
      NOW,
    );
    const ask = (audience: 'user' | 'operator', id: string) =>
      recipientsFor(db, { audience, ownerIds: [id], kind: 'task_failed', channel: 'email' }, NOW);
    assert.equal((await ask('user', u.userId)).get(u.userId)?.toISOString(), NOW.toISOString());
    await db
      .updateTable('users')
      .set({ timezone: 'Europe/Berlin' })
      .where('id', '=', u.userId)
      .execute();
    assert.equal(
      (await ask('user', u.userId)).get(u.userId)?.toISOString(),
      '2026-03-03T06:00:00.000Z',
    );
    await savePreferences(
      db,
      'operator',
      'opr_x',
      { on: ['task_failed:email'], quiet: NIGHT },
      NOW,
    );
    assert.equal(
      (await ask('operator', 'opr_x')).get('opr_x')?.toISOString(),
      '2026-03-03T07:00:00.000Z',
    );
  });

  test('thousands of owners in a few queries', async () => {
    const t = get();
    const db = t.ctx.db;
    const ids = Array.from({ length: 2500 }, (_, i) => `wrk_${String(i).padStart(5, '0')}`);
    const rows = ids.slice(0, 300).map((id) => ({
      audience: 'worker' as const,
      owner_id: id,
      quiet_start: '22:00',
      quiet_end: '07:00',
      timezone: null,
      updated_at: NOW.toISOString(),
    }));
    await db.insertInto('notify_quiet_hours').values(rows).execute();
    await db
      .insertInto('notify_opt_outs')
      .values(
        ids.slice(2400).map((id) => ({
          audience: 'worker' as const,
          owner_id: id,
          kind: 'task_released',
          channel: 'push' as const,
          created_at: NOW.toISOString(),
        })),
      )
      .execute();
    let queries = 0;
    const counted = db.withPlugin({
      transformQuery: (args) => {
        queries += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const got = await recipientsFor(
      counted,
      { audience: 'worker', ownerIds: ids, kind: 'task_released', channel: 'push' },
      NOW,
    );
    assert.equal(got.size, 2400);
    // Workers unknown to the workers table read their quiet hours in UTC: 07:00.
    assert.equal(got.get('wrk_00000')?.toISOString(), '2026-03-03T07:00:00.000Z');
    assert.equal(got.get('wrk_00300')?.toISOString(), NOW.toISOString());
    assert.ok(queries <= 6, `${queries} queries for 2500 owners`);
  });
});
