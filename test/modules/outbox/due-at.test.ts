// Messages held until their time, on both databases: a mail or a push written with a dueAt
// (the end of its person's quiet hours) waits in the outbox, is not claimed before then and
// is claimed once it comes; a dueAt already past sends at once; a push keeps its TTL as a
// span from its sending.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claimMail, sendMail } from '../../../src/modules/outbox/index.ts';
import { queuePush } from '../../../src/modules/push/index.ts';
import { createWorker } from '../../../src/modules/workers/index.ts';
import { describeEachDialect } from '../../helpers/dialects.ts';

const NOW = new Date('2026-03-02T23:30:00.000Z');
const MORNING = new Date('2026-03-03T06:00:00.000Z');
const lease = { owner: 'test', ms: 60_000 };
const content = {
  subject: 'Hello',
  heading: 'Hello',
  paragraphs: ['Hi.'],
  why: 'A test.',
  stop: { security: true as const },
};

describeEachDialect('outbox due times', (get) => {
  test('a held mail waits until its time; a past one goes at once', async () => {
    const t = get();
    const db = t.ctx.db;
    await sendMail(
      db,
      { companyId: null, kind: 'task_failed', to: 'held@example.com', dueAt: MORNING },
      content,
      NOW,
    );
    await sendMail(
      db,
      {
        companyId: null,
        kind: 'task_failed',
        to: 'now@example.com',
        dueAt: new Date(NOW.getTime() - 60_000),
      },
      content,
      NOW,
    );
    const rows = await db
      .selectFrom('outbox_messages')
      .select(['recipient', 'created_at', 'due_at'])
      .orderBy('recipient')
      .execute();
    assert.deepEqual(rows, [
      {
        recipient: 'held@example.com',
        created_at: NOW.toISOString(),
        due_at: MORNING.toISOString(),
      },
      { recipient: 'now@example.com', created_at: NOW.toISOString(), due_at: NOW.toISOString() },
    ]);
    const first = await claimMail(db, 10, lease, new Date(MORNING.getTime() - 1));
    assert.deepEqual(
      first.map((m) => m.to),
      ['now@example.com'],
    );
    const later = await claimMail(db, 10, lease, MORNING);
    assert.deepEqual(
      later.map((m) => m.to),
      ['held@example.com'],
    );
  });

  test('a held push waits too, its TTL a span from its sending', async () => {
    const t = get();
    const db = t.ctx.db;
    const w = await createWorker(db, t.ctx.clock, { name: 'Pia', timezone: 'Europe/Berlin' });
    await db
      .insertInto('push_subscriptions')
      .values({
        id: 'psb_1',
        audience: 'worker',
        owner_id: w.workerId,
        company_id: null,
        endpoint: 'https://push.example/1',
        p256dh: 'k',
        auth: 'a',
        expiration_time: null,
        created_at: NOW.toISOString(),
        updated_at: NOW.toISOString(),
      })
      .execute();
    const written = await queuePush(
      db,
      {
        audience: 'worker',
        ownerIds: [w.workerId],
        companyId: null,
        kind: 'task_released',
        notice: { title: 'New task', body: 'New task', url: '/x', tag: 't' },
        dedupeKey: 'k1',
        ttlSeconds: 7200,
        dueAt: MORNING,
      },
      NOW,
    );
    assert.equal(written, 1);
    assert.deepEqual(await claimMail(db, 10, lease, NOW, 'push'), []);
    const [push] = await claimMail(db, 10, lease, MORNING, 'push');
    assert.equal(push?.to, 'psb_1');
    assert.equal(push?.headers.TTL, '7200');
  });
});
