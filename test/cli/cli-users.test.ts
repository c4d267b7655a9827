// The user commands of the admin CLI, as an operator runs them, on both databases: one
// sequence on one data directory, since each command is a new process.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/databases.ts';
import { useCli } from '../helpers/cli.ts';
import { listActivity } from '../../src/modules/activity/index.ts';
import { SignInRefused } from '../../src/modules/sign-in/index.ts';
import { resolveSession, signIn } from '../../src/modules/users/index.ts';

for (const dialect of DIALECTS) {
  describe(`slotline user commands [${dialect}]`, () => {
    const { cli, cliJson, cliFails, withDb } = useCli(dialect);

    const signInWith = (email: string, password: string) =>
      withDb((ctx) => signIn(ctx.db, ctx.clock, { email, password, address: '127.0.0.1' }));

    test('user create, list, disable and reset', { timeout: 200_000 }, async () => {
      const company = await cliJson('company', 'create', '--name', 'Acme');
      const created = await cliJson(
        'user',
        'create',
        '--company',
        company.companyId,
        '--email',
        'Ann@Example.com',
        '--role',
        'editor',
      );
      assert.equal(created.email, 'ann@example.com');
      assert.equal(created.role, 'editor');
      assert.equal(created.companyId, company.companyId);
      assert.match(created.password, /^[0-9a-z]{20}$/);
      assert.match(created.signInUrl, /^http:\/\/\S+\/dashboard\/$/);

      // The text form shows the password once and says where to use it.
      const text = await cli(
        'user',
        'create',
        '--company',
        company.companyId,
        '--email',
        'bob@example.com',
      );
      assert.match(text, /^created user usr_\S+ bob@example\.com \(viewer\) in company cmp_/);
      assert.match(text, /\n[0-9a-z]{20}\n/);
      assert.match(text, /not shown again/);
      assert.match(text, /Sign in at http:\/\/\S+\/dashboard\/ with bob@example\.com/);

      assert.match(
        await cliFails(
          'user',
          'create',
          '--company',
          company.companyId,
          '--email',
          'ANN@example.com',
        ),
        /user ann@example\.com already exists/,
      );
      assert.match(
        await cliFails(
          'user',
          'create',
          '--company',
          company.companyId,
          '--email',
          'eve@example.com',
          '--role',
          'owner',
        ),
        /role must be one of admin, editor, viewer/,
      );

      const listed = await cliJson('user', 'list', '--company', company.companyId);
      assert.deepEqual(
        listed.map((u: { email: string; role: string }) => [u.email, u.role]),
        [
          ['ann@example.com', 'editor'],
          ['bob@example.com', 'viewer'],
        ],
      );
      assert.ok(!JSON.stringify(listed).includes(created.password), 'no password in lists');

      const { token } = await signInWith('ann@example.com', created.password);
      const disabled = await cliJson('user', 'disable', created.userId);
      assert.ok(disabled.disabledAt, 'disabledAt is set');
      assert.equal(await withDb((ctx) => resolveSession(ctx.db, ctx.clock, token)), null);
      assert.match(await cli('user', 'list'), /ann@example\.com {2}editor {2}cmp_\S+ {2}disabled/);

      const reset = await cliJson('user', 'reset', created.userId);
      assert.equal(reset.disabledAt, null, 'a reset enables the user again');
      assert.notEqual(reset.password, created.password);
      await assert.rejects(signInWith('ann@example.com', created.password), SignInRefused);
      const again = await signInWith('ann@example.com', reset.password);
      assert.equal(again.session.role, 'editor');
      assert.match(await cliFails('user', 'reset', 'usr_nope'), /user usr_nope does not exist/);

      const log = await withDb((ctx) => listActivity(ctx.db, company.companyId, { limit: 10 }));
      assert.deepEqual(log.map((e) => [e.action, e.detail, e.actor]).reverse(), [
        ['user.created', 'ann@example.com', 'operator'],
        ['user.created', 'bob@example.com', 'operator'],
        ['user.disabled', 'ann@example.com', 'operator'],
        ['user.password_reset', 'ann@example.com', 'operator'],
      ]);
    });
  });
}
