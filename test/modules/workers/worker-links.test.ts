// One-time sign-in links of the workers' app on both databases: a link opens one session,
// once, within a day, and only while the worker's token is the one it was made under.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import {
  createWorker,
  createWorkerSignInLink,
  resolveWorkerSession,
  revokeWorker,
  rotateWorkerToken,
  signInWorkerByLink,
} from '../../../src/modules/workers/index.ts';
import { SignInRefused } from '../../../src/modules/sign-in/index.ts';

const tokenOf = (url: string) => new URL(url).searchParams.get('token') as string;

describeEachDialect('worker sign-in links', (get) => {
  test('a link signs a phone in once; used, expired, rotated or revoked, it is refused', async () => {
    const t = get();
    const { db, clock } = t.ctx;
    const worker = await createWorker(db, clock, { name: 'Phone', timezone: 'Europe/Paris' });
    const link = await createWorkerSignInLink(db, clock, worker.workerId, t.config.publicUrl);
    assert.ok(link.url.startsWith(`${t.config.publicUrl}/dashboard/worker/link?token=`));
    assert.equal(
      Date.parse(link.expiresAt) - clock.now().getTime(),
      24 * 3_600_000,
      'a link lasts a day',
    );
    const signIn = (url: string, address = '203.0.113.5') =>
      signInWorkerByLink(db, clock, { token: tokenOf(url), address });
    const { secret, session } = await signIn(link.url);
    assert.equal(session.worker.workerId, worker.workerId);
    assert.equal(session.worker.timezone, 'Europe/Paris');
    assert.equal((await resolveWorkerSession(db, clock, secret))?.worker.name, 'Phone');
    await assert.rejects(signIn(link.url), SignInRefused, 'a link is used once');
    // Only its digest is stored.
    const stored = await db.selectFrom('worker_sign_in_links').selectAll().execute();
    assert.ok(stored.every((r) => !link.url.includes(r.id)));

    const late = await createWorkerSignInLink(db, clock, worker.workerId, t.config.publicUrl);
    t.clock.advance(24 * 3_600_000);
    await assert.rejects(signIn(late.url), SignInRefused, 'expired');

    const beforeRotation = await createWorkerSignInLink(
      db,
      clock,
      worker.workerId,
      t.config.publicUrl,
    );
    await rotateWorkerToken(db, clock, worker.workerId);
    await assert.rejects(signIn(beforeRotation.url), SignInRefused, 'rotated');
    assert.equal(await resolveWorkerSession(db, clock, secret), null, 'rotation ends sessions');

    const afterRotation = await createWorkerSignInLink(
      db,
      clock,
      worker.workerId,
      t.config.publicUrl,
    );
    await revokeWorker(db, clock, worker.workerId);
    await assert.rejects(signIn(afterRotation.url), SignInRefused, 'revoked');
    await assert.rejects(
      createWorkerSignInLink(db, clock, worker.workerId, t.config.publicUrl),
      /no active worker/,
    );
    await assert.rejects(
      signInWorkerByLink(db, clock, { token: 'not-a-link', address: '203.0.113.9' }),
      SignInRefused,
    );
  });
});
