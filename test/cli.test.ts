// The admin CLI end to end, as an operator runs it, on both databases.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { DIALECTS, createPgDatabase } from './helpers/databases.ts';

const run = promisify(execFile);

for (const dialect of DIALECTS) {
  describe(`slotline CLI [${dialect}]`, () => {
    let dir = '';
    let env: NodeJS.ProcessEnv = {};
    let drop: (() => Promise<void>) | undefined;

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'slotline-cli-'));
      env = { ...process.env, DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent' };
      delete env.DATABASE_URL;
      if (dialect === 'postgres') {
        const db = await createPgDatabase();
        env.DATABASE_URL = db.url;
        drop = db.drop;
      }
    });
    after(async () => {
      await drop?.();
      await rm(dir, { recursive: true, force: true });
    });

    async function cli(...args: string[]) {
      const { stdout } = await run(process.execPath, ['bin/slotline.js', ...args], {
        env,
        timeout: 60_000,
      });
      return stdout;
    }
    async function cliJson(...args: string[]) {
      return JSON.parse(await cli(...args, '--json'));
    }
    async function cliFails(...args: string[]): Promise<string> {
      try {
        await cli(...args);
      } catch (err) {
        const e = err as { code: number; stderr: string };
        assert.equal(e.code, 1);
        return e.stderr;
      }
      assert.fail(`expected failure: ${args.join(' ')}`);
    }

    // Each command is a new process; give a loaded machine time.
    test('migrate, companies, keys, workspace and packs', { timeout: 400_000 }, async () => {
      const migrated = await cliJson('migrate');
      assert.ok(Array.isArray(migrated.applied));
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
      assert.ok(revoked.revokedAt);

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
      const seeded = await cliJson('seed', 'demo');
      assert.match(seeded.apiKey, /^sl_/);
      assert.equal(seeded.accountIds.length, 4);
      assert.equal(seeded.folderIds.length, 2);
      assert.equal(seeded.packIds.length, 2);
    });
  });
}
