// The admin CLI end to end, as an operator runs it, on both databases.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { DIALECTS } from '../helpers/databases.ts';
import { useCli } from '../helpers/cli.ts';
import { filesUnder, rowsLeft } from '../helpers/rows-left.ts';
import { signIn } from '../../src/modules/users/index.ts';
import { operatorLinkInfo } from '../../src/modules/operators/index.ts';

for (const dialect of DIALECTS) {
  describe(`slotline CLI [${dialect}]`, () => {
    // A port of its own: the URLs the commands print follow the service's PORT.
    const {
      cli,
      cliJson,
      cliFails,
      withDb,
      dir: scratch,
    } = useCli(dialect, { PORT: '9137', PUBLIC_URL: '' });

    // Each command is a new process; give a loaded machine time.
    test('migrate, companies, keys, workspace and packs', { timeout: 400_000 }, async () => {
      const migrated = await cliJson('migrate');
      assert.ok(Array.isArray(migrated.applied), 'migrate lists what it applied');
      assert.deepEqual((await cliJson('migrate')).applied, []);

      const company = await cliJson('company', 'create', '--name', 'Acme', '--plan', 'growth');
      assert.equal(company.name, 'Acme');
      assert.equal(company.plan, 'growth');
      assert.equal(company.platformBFeedPosts, false);
      const updated = await cliJson(
        'company',
        'update',
        company.companyId,
        '--platformB-feed-posts',
        'on',
        '--timezone',
        'Asia/Kolkata',
      );
      assert.equal(updated.platformBFeedPosts, true);
      assert.equal(updated.defaultTimezone, 'Asia/Kolkata');
      assert.match(
        await cliFails('company', 'update', company.companyId, '--plan', 'gold'),
        /unknown plan "gold"/,
      );

      const key = await cliJson(
        'key',
        'create',
        '--company',
        company.companyId,
        '--scopes',
        'posts:read,usage:read',
        '--name',
        'ci',
      );
      assert.match(key.secret, /^sl_[0-9a-z]{12}_[0-9a-z]{32}$/);
      assert.deepEqual(key.scopes, ['posts:read', 'usage:read']);
      const listed = await cliJson('key', 'list', '--company', company.companyId);
      assert.equal(listed.length, 1);
      assert.equal(listed[0].keyId, key.keyId);
      assert.ok(!JSON.stringify(listed).includes(key.secret), 'secret is shown only once');
      assert.match(
        await cliFails('key', 'create', '--company', company.companyId, '--scopes', 'posts:admin'),
        /unknown scope/,
      );
      const revoked = await cliJson('key', 'revoke', key.keyId);
      assert.ok(revoked.revokedAt, 'revokedAt is set');

      const dir = scratch();
      const png = join(dir, 'one.png');
      const jpg = join(dir, 'two.jpg');
      await sharp({ create: { width: 40, height: 70, channels: 3, background: '#336699' } })
        .png()
        .toFile(png);
      await sharp({ create: { width: 30, height: 20, channels: 3, background: '#993366' } })
        .jpeg()
        .toFile(jpg);
      const imported = await cliJson(
        'workspace',
        'import',
        '--company',
        company.companyId,
        '--folder',
        'Shots',
        png,
        jpg,
      );
      assert.equal(imported.imageIds.length, 2);
      const again = await cliJson(
        'workspace',
        'import',
        '--company',
        company.companyId,
        '--folder',
        'Shots',
        png,
      );
      assert.equal(again.folderId, imported.folderId, 'import extends the existing folder');
      const pack = await cliJson(
        'workspace',
        'pack',
        'create',
        '--company',
        company.companyId,
        '--folder',
        imported.folderId,
        '--name',
        'Pack',
        '--images',
        imported.imageIds.join(','),
        '--fit',
        'fit',
        '--use-once',
      );
      assert.match(pack.packId, /^pck_/);
      assert.match(
        await cliFails(
          'workspace',
          'import',
          '--company',
          company.companyId,
          '--folder',
          'Shots',
          join(dir, 'data'),
        ),
        /cannot read .*EISDIR/,
      );
    });

    test('seed demo creates a usable company', { timeout: 200_000 }, async () => {
      const r = await cliJson('seed', 'demo');
      assert.match(r.apiKey, /^sl_/);
      assert.equal(r.accountIds.length, 4);
      assert.equal(r.folderIds.length, 2);
      assert.equal(r.packIds.length, 2);
      // A simulated worker operates every demo account, in its timezone.
      assert.equal(r.worker.simulated, true);
      assert.match(r.worker.workerId, /^wrk_/);
      assert.ok(!('token' in r.worker), 'the simulated worker needs no token in the output');
      // A dashboard admin of the demo company, whose password signs in.
      assert.equal(r.user.email, 'demo@slotline.local');
      assert.equal(r.user.role, 'admin');
      assert.equal(r.user.companyId, r.companyId);
      assert.equal(r.user.signInUrl, 'http://127.0.0.1:9137/dashboard/');
      assert.match(r.operator.signInUrl, /^http:\/\/127\.0\.0\.1:9137\/operator\//);
      const { session } = await withDb((ctx) =>
        signIn(ctx.db, ctx.clock, {
          email: r.user.email,
          password: r.user.password,
          address: '127.0.0.1',
        }),
      );
      assert.equal(session.companyId, r.companyId);
      // An operator whose one-time link opens the console's first step.
      assert.equal(r.operator.email, 'operator@slotline.local');
      const token = new URL(r.operator.signInUrl).searchParams.get('token') as string;
      assert.match(r.operator.signInUrl, /\/operator\/welcome\?token=/);
      const link = await withDb((ctx) => operatorLinkInfo(ctx.db, ctx.clock, token));
      assert.equal(link?.email, 'operator@slotline.local');
      const rows = await withDb((ctx) =>
        ctx.db
          .selectFrom('accounts')
          .select(['worker_id', 'timezone'])
          .where('id', 'in', r.accountIds)
          .execute(),
      );
      assert.equal(rows.length, 4);
      assert.ok(
        rows.every((a) => a.worker_id === r.worker.workerId && a.timezone === r.worker.timezone),
        `every demo account is operated by the simulated worker: ${JSON.stringify(rows)}`,
      );
      const statuses = r.posts.map((p: { status: string }) => p.status).sort();
      assert.deepEqual(statuses, [...Array(5).fill('queued'), 'pending_approval'].sort());
      const soonest = Math.min(
        ...r.accounts.map((a: { nextWindow: string }) => Date.parse(a.nextWindow)),
      );
      assert.equal(Date.parse(r.nextWindow), soonest, 'nextWindow is the earliest account window');
      // The first window opens a minute or two after the seed: the first release with it.
      assert.ok(
        soonest - Date.now() <= 3 * 60_000 && soonest > Date.now(),
        `the first window comes within 3 minutes (${r.nextWindow}, in ${r.worker.timezone})`,
      );

      // Seeding again makes a second, separate demo; the text form says what it set up.
      const text = await cli('seed', 'demo', '--timezone', 'Asia/Tokyo');
      assert.match(text, /simulated worker wrk_\S+ \(.+\) in Asia\/Tokyo operates them/);
      assert.match(text, /posts: 5 queued, 1 waiting for approval/);
      assert.match(
        text,
        /try: curl -H "Authorization: Bearer sl_\S+" http:\/\/127\.0\.0\.1:9137\/v2\/accounts/,
      );
      assert.match(text, /next window: \S+Z \(\d\d:\d\d Asia\/Tokyo, in \d+ min\)/);
      // The demo user exists already: it keeps its company and gets a new password.
      const signInLine =
        /dashboard: sign in at http:\/\/\S+\/dashboard\/ as demo@slotline\.local \(admin\) with password ([0-9a-z]{20}) \(a new password; that user belongs to the demo company (\S+), seeded earlier\)/.exec(
          text,
        );
      assert.ok(signInLine, text);
      assert.notEqual(signInLine[1], r.user.password);
      assert.equal(signInLine[2], r.companyId);
      // The demo operator starts over with a new link; the earlier one no longer works.
      const operatorLine = /operator console: open (\S+) \(once, within 24 hours\)/.exec(text);
      assert.ok(operatorLine, text);
      assert.notEqual(operatorLine[1], r.operator.signInUrl);
      assert.equal(await withDb((ctx) => operatorLinkInfo(ctx.db, ctx.clock, token)), null);
    });
  });

  describe(`slotline seed demo failing part-way [${dialect}]`, () => {
    const { cliFails, withDb, dir } = useCli(dialect);

    test('removes everything it made and says why on one line', { timeout: 200_000 }, async () => {
      // A file where the uploads' folder goes: the workspace images are stored, then the
      // first upload's bytes cannot be, after the company and most of the demo exist.
      const blobs = join(dir(), 'data', 'blobs');
      await mkdir(blobs, { recursive: true });
      await writeFile(join(blobs, 'uploads'), 'not a folder');

      const stderr = await cliFails('seed', 'demo');
      assert.match(
        stderr,
        /^slotline: seed demo failed: ENOTDIR: .*; demo company cmp_\S+ and everything made for it were removed\n$/,
      );
      assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
      assert.deepEqual(await withDb((ctx) => rowsLeft(ctx.db)), {});
      assert.deepEqual(await filesUnder(blobs), ['uploads'], 'only the blocking file is left');
    });
  });
}
