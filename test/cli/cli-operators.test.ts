// The operator commands of the admin CLI, as an administrator runs them, on both databases:
// one sequence on one data directory, since each command is a new process. The sign-in
// links they print are checked in the database; the console's own tests follow them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/databases.ts';
import { useCli } from '../helpers/cli.ts';
import { listOperatorLog, operatorLinkInfo } from '../../src/modules/operators/index.ts';

function tokenOf(link: string): string {
  const token = new URL(link).searchParams.get('token');
  assert.ok(token, link);
  return token;
}

for (const dialect of DIALECTS) {
  describe(`slotline operator commands [${dialect}]`, () => {
    const { cli, cliJson, cliFails, withDb } = useCli(dialect);

    test('operator create, list, disable and reset', { timeout: 200_000 }, async () => {
      const created = await cliJson(
        'operator',
        'create',
        '--email',
        'Olga@Slotline.Example',
        '--name',
        'Olga Ops',
      );
      assert.match(created.operatorId, /^opr_/);
      assert.equal(created.email, 'olga@slotline.example');
      assert.equal(created.name, 'Olga Ops');
      assert.equal(created.status, 'invited');
      assert.match(created.signInLink, /^http:\/\/\S+\/operator\/welcome\?token=[0-9a-z]+$/);
      const first = tokenOf(created.signInLink);
      const info = await withDb((ctx) => operatorLinkInfo(ctx.db, ctx.clock, first));
      assert.equal(info?.email, 'olga@slotline.example');
      assert.ok(Date.parse(created.linkExpiresAt) - Date.now() > 23 * 3600 * 1000);
      const stored = await withDb((ctx) =>
        ctx.db.selectFrom('operator_links').selectAll().execute(),
      );
      assert.ok(!JSON.stringify(stored).includes(first), 'the link is stored as a digest');

      // The text form prints the link once and says what it is for; the name defaults.
      const text = await cli('operator', 'create', '--email', 'ben@slotline.example');
      assert.match(
        text,
        /^created operator opr_\S+ ben@slotline\.example \(ben\); one-time sign-in link:\n/,
      );
      assert.match(text, /\nhttp:\/\/\S+\/operator\/welcome\?token=[0-9a-z]+\n/);
      assert.match(text, /choose a password and set up the authenticator app/);
      assert.match(text, /not shown again/);

      // Errors: one line, exit code 1, no stack trace.
      for (const [args, message] of [
        [
          ['operator', 'create', '--email', 'OLGA@slotline.example'],
          /operator olga@slotline\.example already exists/,
        ],
        [
          ['operator', 'create', '--email', 'not an email'],
          /"not an email" is not an email address/,
        ],
        [
          ['operator', 'create', '--email', 'x@y.z', '--name', '  '],
          /name must be 1-100 characters/,
        ],
        [
          ['operator', 'disable', '--email', 'nobody@slotline.example'],
          /operator nobody@slotline\.example does not exist/,
        ],
        [
          ['operator', 'reset', '--email', 'nobody@slotline.example'],
          /operator nobody@slotline\.example does not exist/,
        ],
      ] as const) {
        const stderr = await cliFails(...args);
        assert.match(stderr, message);
        assert.equal(stderr.trim().split('\n').length, 1, stderr);
        assert.match(stderr, /^slotline: /);
        assert.doesNotMatch(stderr, /\n\s+at /);
      }
      assert.match(await cliFails('operator', 'create'), /required option '--email <email>'/);

      const listed = await cliJson('operator', 'list');
      assert.deepEqual(
        listed.map((o: { email: string; status: string }) => [o.email, o.status]),
        [
          ['olga@slotline.example', 'invited'],
          ['ben@slotline.example', 'invited'],
        ],
      );
      assert.ok(!JSON.stringify(listed).includes('token'), 'no link or secret in the list');
      assert.match(
        await cli('operator', 'list'),
        /^opr_\S+ {2}olga@slotline\.example {2}Olga Ops {2}invited$/m,
      );

      const disabled = await cliJson('operator', 'disable', '--email', 'ben@slotline.example');
      assert.equal(disabled.status, 'disabled');
      assert.match(
        await cli('operator', 'disable', '--email', 'ben@slotline.example'),
        /its sessions have ended/,
      );
      const benLinks = await withDb((ctx) =>
        ctx.db
          .selectFrom('operator_links')
          .innerJoin('operators', 'operators.id', 'operator_links.operator_id')
          .select('operator_links.expires_at')
          .where('operators.email', '=', 'ben@slotline.example')
          .execute(),
      );
      assert.ok(
        benLinks.every((l) => Date.parse(l.expires_at) <= Date.now()),
        'its link ended',
      );

      const reset = await cliJson('operator', 'reset', '--email', 'Olga@slotline.example');
      assert.equal(reset.status, 'invited');
      const second = tokenOf(reset.signInLink);
      assert.notEqual(second, first);
      assert.equal(
        await withDb((ctx) => operatorLinkInfo(ctx.db, ctx.clock, first)),
        null,
        'the old link ended',
      );
      assert.ok(await withDb((ctx) => operatorLinkInfo(ctx.db, ctx.clock, second)));
      // A reset enables a disabled operator again, with a new link.
      const back = await cliJson('operator', 'reset', '--email', 'ben@slotline.example');
      assert.equal(back.status, 'invited');
      assert.match(
        await cli('operator', 'reset', '--email', 'ben@slotline.example'),
        /one-time sign-in link:\nhttp/,
      );

      // Every command that changed something is in the operator log, by the admin CLI.
      const log = await withDb((ctx) => listOperatorLog(ctx.db, { limit: 100 }));
      assert.deepEqual(
        log.map((e) => [e.action, e.details.email, e.actorLabel, e.operatorId]).reverse(),
        [
          ['operator.created', 'olga@slotline.example', 'admin CLI', null],
          ['operator.created', 'ben@slotline.example', 'admin CLI', null],
          ['operator.disabled', 'ben@slotline.example', 'admin CLI', null],
          ['operator.reset', 'olga@slotline.example', 'admin CLI', null],
          ['operator.reset', 'ben@slotline.example', 'admin CLI', null],
          ['operator.reset', 'ben@slotline.example', 'admin CLI', null],
        ],
      );
    });
  });
}
