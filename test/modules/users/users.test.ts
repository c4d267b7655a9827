// Dashboard users: creation, argon2id passwords, sign-in with its failure limits, sessions
// with absolute and idle expiry, disabling and resetting, and the activity they leave.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { makeAccounts, readyUpload } from '../../helpers/posts.ts';
import { listActivity, OPERATOR } from '../../../src/modules/activity/index.ts';
import { approve } from '../../../src/modules/items/index.ts';
import {
  createUser,
  disableUser,
  listUsers,
  resetPassword,
  resolveSession,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  signIn,
  signOut,
  UserError,
} from '../../../src/modules/users/users.service.ts';
import { SignInRefused } from '../../../src/modules/sign-in/index.ts';
import {
  ATTEMPT_WINDOW_MS,
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ADDRESS,
} from '../../../src/modules/sign-in/index.ts';

let serial = 0;
/** An email and a client address no other test uses (the tests share one database). */
function fresh(): { email: string; address: string } {
  serial += 1;
  return { email: `person${serial}@example.com`, address: `192.0.2.${serial}` };
}

async function newUser(t: TestApp, role = 'editor') {
  const co = await seedCompany(t);
  const { email, address } = fresh();
  const { user, password } = await createUser(t.ctx.db, t.clock, {
    companyId: co.companyId,
    email,
    role,
  });
  return { co, user, password, email, address };
}

function refused(reason: 'invalid' | 'limited') {
  return (err: unknown) => {
    assert.ok(err instanceof SignInRefused, String(err));
    assert.equal(err.reason, reason);
    return true;
  };
}

describeEachDialect('users', (get) => {
  test('create: email normalised; duplicate, bad role, unknown company refused', async () => {
    const t = get();
    const co = await seedCompany(t);
    const { user, password } = await createUser(t.ctx.db, t.clock, {
      companyId: co.companyId,
      email: '  Mixed.Case@Example.COM ',
    });
    assert.equal(user.email, 'mixed.case@example.com');
    assert.equal(user.role, 'viewer', 'viewer by default');
    assert.equal(user.companyId, co.companyId);
    assert.equal(user.disabledAt, null);
    assert.match(password, /^[0-9a-z]{20}$/);
    assert.deepEqual(
      (await listUsers(t.ctx.db, co.companyId)).map((u) => u.userId),
      [user.userId],
    );

    const attempt = (input: { companyId?: string; email?: string; role?: string }) =>
      createUser(t.ctx.db, t.clock, {
        companyId: co.companyId,
        email: 'other@example.com',
        ...input,
      });
    await assert.rejects(attempt({ email: 'MIXED.case@example.com' }), (err: unknown) => {
      assert.ok(err instanceof UserError);
      assert.match(err.message, /mixed\.case@example\.com already exists/);
      return true;
    });
    // One email signs in to one company: another company cannot take it either.
    const other = await seedCompany(t);
    await assert.rejects(
      attempt({ companyId: other.companyId, email: 'mixed.case@example.com' }),
      UserError,
    );
    await assert.rejects(attempt({ role: 'owner' }), /role must be one of/);
    await assert.rejects(attempt({ email: 'not-an-email' }), UserError);
    await assert.rejects(attempt({ companyId: 'cmp_nope' }), /company cmp_nope does not exist/);
    assert.equal((await listUsers(t.ctx.db, co.companyId)).length, 1, 'nothing else was made');
  });

  test('passwords are stored as argon2id hashes, never in clear', async () => {
    const t = get();
    const { user, password } = await newUser(t);
    const row = await t.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.userId)
      .executeTakeFirstOrThrow();
    assert.ok(row.password_hash.startsWith('$argon2id$'), row.password_hash);
    assert.ok(!row.password_hash.includes(password));
    assert.ok(!JSON.stringify(user).includes(password));
    assert.ok(!('passwordHash' in user) && !('password_hash' in user));
  });

  test('sign-in opens a session that resolves to the user; signOut ends it', async () => {
    const t = get();
    const { co, user, password, email, address } = await newUser(t, 'admin');
    const signedInAt = t.clock.now().toISOString();
    const { token, session } = await signIn(t.ctx.db, t.clock, {
      email: email.toUpperCase(),
      password,
      address,
    });
    assert.equal(session.userId, user.userId);
    assert.equal(session.companyId, co.companyId);
    assert.equal(session.role, 'admin');
    assert.equal(
      session.expiresAt,
      new Date(t.clock.now().getTime() + SESSION_MAX_MS).toISOString(),
    );

    t.clock.advance(5 * 60_000);
    const resolved = await resolveSession(t.ctx.db, t.clock, token);
    assert.ok(resolved);
    assert.equal(resolved.userId, user.userId);
    assert.equal(resolved.companyId, co.companyId);
    assert.equal(resolved.role, 'admin');
    assert.equal(resolved.email, email);
    assert.equal(resolved.csrfToken, session.csrfToken);
    assert.ok(resolved.csrfToken.length >= 32);
    assert.equal(await resolveSession(t.ctx.db, t.clock, `${token}x`), null);
    assert.equal(await resolveSession(t.ctx.db, t.clock, ''), null);
    // The database keeps the cookie's digest, never the cookie.
    const ids = await t.ctx.db.selectFrom('sessions').select('id').execute();
    assert.ok(ids.every((r) => r.id !== token));
    const [signedIn] = await listUsers(t.ctx.db, co.companyId);
    assert.equal(signedIn?.lastSignInAt, signedInAt);

    await signOut(t.ctx.db, resolved);
    assert.equal(await resolveSession(t.ctx.db, t.clock, token), null);
  });

  test('wrong password and unknown email are refused alike', async () => {
    const t = get();
    const { email, address } = await newUser(t);
    const wrong = await signIn(t.ctx.db, t.clock, { email, password: 'not-it', address }).then(
      () => assert.fail('signed in with a wrong password'),
      (err: unknown) => err,
    );
    const unknown = await signIn(t.ctx.db, t.clock, {
      email: 'nobody@example.com',
      password: 'not-it',
      address,
    }).then(
      () => assert.fail('signed in as nobody'),
      (err: unknown) => err,
    );
    for (const err of [wrong, unknown]) refused('invalid')(err);
    assert.equal((wrong as Error).message, (unknown as Error).message);
  });

  test('an account is limited after 5 failures, even with the right password', async () => {
    const t = get();
    const { email, password, address } = await newUser(t);
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) {
      t.clock.advance(1000);
      await assert.rejects(
        signIn(t.ctx.db, t.clock, { email, password: `wrong${i}`, address: `198.51.100.${i}` }),
        refused('invalid'),
      );
    }
    t.clock.advance(1000);
    const limited = await signIn(t.ctx.db, t.clock, { email, password, address }).then(
      () => assert.fail('a limited account signed in'),
      (err: unknown) => err,
    );
    refused('limited')(limited);
    const retryAfter = (limited as SignInRefused).retryAfter;
    // The window opened at the first failure, 5 s ago.
    assert.equal(retryAfter, ATTEMPT_WINDOW_MS / 1000 - MAX_FAILURES_PER_ACCOUNT);

    t.clock.advance(retryAfter * 1000 - 1000);
    await assert.rejects(
      signIn(t.ctx.db, t.clock, { email, password, address }),
      refused('limited'),
    );
    t.clock.advance(1000);
    const ok = await signIn(t.ctx.db, t.clock, { email, password, address });
    assert.equal(ok.session.email, email);
  });

  test('an address is limited after 20 failures across emails', async () => {
    const t = get();
    const { email, password, address } = await newUser(t);
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      await assert.rejects(
        signIn(t.ctx.db, t.clock, { email: `guess${i}@example.com`, password: 'x', address }),
        refused('invalid'),
      );
    }
    await assert.rejects(
      signIn(t.ctx.db, t.clock, { email, password, address }),
      (err: unknown) => refused('limited')(err) && (err as SignInRefused).retryAfter > 0,
    );
    // The account itself is not limited: from another address it signs in.
    const elsewhere = await signIn(t.ctx.db, t.clock, {
      email,
      password,
      address: '203.0.113.7',
    });
    assert.equal(elsewhere.session.email, email);
    t.clock.advance(ATTEMPT_WINDOW_MS);
    await signIn(t.ctx.db, t.clock, { email, password, address });
  });

  test('a session ends 12 hours after sign-in, however busy', async () => {
    const t = get();
    const { email, password, address } = await newUser(t);
    const { token } = await signIn(t.ctx.db, t.clock, { email, password, address });
    const hour = 60 * 60_000;
    for (let h = 1; h < SESSION_MAX_MS / hour; h++) {
      t.clock.advance(hour);
      assert.ok(await resolveSession(t.ctx.db, t.clock, token), `alive after ${h} h`);
    }
    t.clock.advance(hour - 1);
    assert.ok(await resolveSession(t.ctx.db, t.clock, token), 'alive until the last millisecond');
    t.clock.advance(1);
    assert.equal(await resolveSession(t.ctx.db, t.clock, token), null);
  });

  test('a sign-in sweeps away sessions past their expiry', async () => {
    const t = get();
    const first = await newUser(t);
    await signIn(t.ctx.db, t.clock, first);
    const count = async () =>
      Number(
        (
          await t.ctx.db
            .selectFrom('sessions')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('user_id', '=', first.user.userId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    assert.equal(await count(), 1);
    t.clock.advance(SESSION_MAX_MS);
    const second = await newUser(t);
    await signIn(t.ctx.db, t.clock, second);
    assert.equal(await count(), 0);
  });

  test('a session ends after 2 idle hours; each request keeps it alive', async () => {
    const t = get();
    const { email, password, address } = await newUser(t);
    const { token } = await signIn(t.ctx.db, t.clock, { email, password, address });
    t.clock.advance(SESSION_IDLE_MS - 1);
    assert.ok(await resolveSession(t.ctx.db, t.clock, token));
    t.clock.advance(SESSION_IDLE_MS - 1);
    assert.ok(await resolveSession(t.ctx.db, t.clock, token), 'the last request moved it on');
    t.clock.advance(SESSION_IDLE_MS);
    assert.equal(await resolveSession(t.ctx.db, t.clock, token), null);
  });

  test('a disabled user is out at its next request and cannot sign in', async () => {
    const t = get();
    const { co, user, email, password, address } = await newUser(t);
    const { token } = await signIn(t.ctx.db, t.clock, { email, password, address });
    t.clock.advance(1000);
    const disabled = await disableUser(t.ctx.db, t.clock, user.userId);
    assert.equal(disabled.disabledAt, t.clock.now().toISOString());
    assert.equal(await resolveSession(t.ctx.db, t.clock, token), null);
    await assert.rejects(
      signIn(t.ctx.db, t.clock, { email, password, address }),
      refused('invalid'),
    );
    // Disabling again changes nothing and logs nothing more.
    t.clock.advance(1000);
    const again = await disableUser(t.ctx.db, t.clock, user.userId);
    assert.equal(again.disabledAt, disabled.disabledAt);
    const log = await listActivity(t.ctx.db, co.companyId, { limit: 10 });
    assert.deepEqual(
      log.map((e) => [e.action, e.target, e.detail, e.actor, e.actorLabel]),
      [
        ['user.disabled', user.userId, email, OPERATOR.id, OPERATOR.label],
        ['user.created', user.userId, email, OPERATOR.id, OPERATOR.label],
      ],
    );
    await assert.rejects(disableUser(t.ctx.db, t.clock, 'usr_nope'), UserError);
  });

  test('reset: a new password works, the old fails, sessions end, enabled again', async () => {
    const t = get();
    const { co, user, email, password, address } = await newUser(t);
    const { token } = await signIn(t.ctx.db, t.clock, { email, password, address });
    await disableUser(t.ctx.db, t.clock, user.userId);
    const admin = { id: 'user:usr_admin', label: 'admin@example.com' };
    t.clock.advance(1000);
    const reset = await resetPassword(t.ctx.db, t.clock, user.userId, admin);
    assert.notEqual(reset.password, password);
    assert.equal(reset.user.disabledAt, null);
    assert.equal(await resolveSession(t.ctx.db, t.clock, token), null, 'old sessions ended');
    await assert.rejects(
      signIn(t.ctx.db, t.clock, { email, password, address }),
      refused('invalid'),
    );
    const ok = await signIn(t.ctx.db, t.clock, { email, password: reset.password, address });
    assert.ok(await resolveSession(t.ctx.db, t.clock, ok.token));

    // A reset ends sessions opened since, too.
    await resetPassword(t.ctx.db, t.clock, user.userId);
    assert.equal(await resolveSession(t.ctx.db, t.clock, ok.token), null);
    const [latest, byAdmin] = await listActivity(t.ctx.db, co.companyId, { limit: 10 });
    assert.equal(latest?.action, 'user.password_reset');
    assert.equal(latest?.actor, OPERATOR.id);
    assert.deepEqual(
      byAdmin && [
        byAdmin.action,
        byAdmin.target,
        byAdmin.detail,
        byAdmin.actor,
        byAdmin.actorLabel,
      ],
      ['user.password_reset', user.userId, email, admin.id, admin.label],
    );
    await assert.rejects(resetPassword(t.ctx.db, t.clock, 'usr_nope'), UserError);
  });

  test('approval by a user records approved_by and an activity entry', async () => {
    const t = get();
    const { co, user, email } = await newUser(t);
    const call = client(t, co.key);
    const [account] = (await makeAccounts(call, 1)) as [string];
    const image = await readyUpload(t, call, 'image.jpg');
    const post = (await call('POST', '/v2/posts', { media: [image], accountIds: [account] })).body;
    assert.equal(post.status, 'pending_approval', JSON.stringify(post));

    t.clock.advance(60_000);
    const actor = { id: `user:${user.userId}`, label: email };
    const r = await approve(t.ctx, { postId: post.postId, companyId: co.companyId, actor });
    assert.deepEqual(r.changed, [account]);
    const items = await t.ctx.db
      .selectFrom('queue_items')
      .select(['approved_by', 'approved_at'])
      .where('post_id', '=', post.postId)
      .execute();
    assert.deepEqual(items, [{ approved_by: actor.id, approved_at: t.clock.now().toISOString() }]);
    const [entry] = await listActivity(t.ctx.db, co.companyId, { limit: 1 });
    assert.ok(entry);
    assert.equal(entry.action, 'post.approved');
    assert.equal(entry.target, post.postId);
    assert.equal(entry.actor, actor.id);
    assert.equal(entry.actorLabel, email);
    assert.equal(entry.at, t.clock.now().toISOString());
    assert.match(entry.detail ?? '', new RegExp(account));
  });
});
