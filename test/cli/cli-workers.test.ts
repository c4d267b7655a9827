// The worker and simulator commands of the admin CLI, as an operator runs them, on both
// databases (beside cli.test.ts: each command is a new process, and one file holds
// only so many within the runner's per-file time limit).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/databases.ts';
import { useCli } from '../helpers/cli.ts';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import { sha256 } from '../../src/lib/crypto.ts';

for (const dialect of DIALECTS) {
  describe(`slotline worker and simulate commands [${dialect}]`, () => {
    const { cli, cliJson, cliFails, withDb } = useCli(dialect);
    let demo: { accountIds: string[]; nextWindow: string; worker: { workerId: string } } | null =
      null;

    async function accountRows(ids: string[]) {
      return withDb((ctx) =>
        ctx.db
          .selectFrom('accounts')
          .select(['id', 'worker_id', 'timezone'])
          .where('id', 'in', ids)
          .orderBy('id')
          .execute(),
      );
    }

    test(
      'simulate --once --at claims released tasks, then posts them',
      { timeout: 200_000 },
      async () => {
        demo = await cliJson('seed', 'demo');
        const seeded = demo as NonNullable<typeof demo>;
        assert.match(
          await cliFails('simulate', '--at', '2026-01-01T00:00:00Z'),
          /--at needs --once/,
        );
        // The demo accounts start pending_setup: the simulator's first pass (the service runs
        // one every few seconds) reports them warming up, so their windows release.
        const setupAt = Date.now();
        const setup = await cliJson('simulate', '--once', '--at', new Date(setupAt).toISOString());
        assert.equal(
          setup.statusReports,
          4,
          `every demo account warms up: ${JSON.stringify(setup)}`,
        );
        assert.equal(
          setup.accountStats,
          4,
          `each demo account gets statistics: ${JSON.stringify(setup)}`,
        );
        const states = await withDb((ctx) =>
          ctx.db
            .selectFrom('accounts')
            .select('status')
            .where('id', 'in', seeded.accountIds)
            .execute(),
        );
        assert.ok(
          states.every((a) => a.status === 'warming_up'),
          JSON.stringify(states),
        );
        // Release the demo's first window in this process, as the service's dispatcher would:
        // it opens within 3 minutes of the seed, and releases at once.
        const released = Date.parse(seeded.nextWindow);
        assert.ok(released - setupAt <= 3 * 60_000, `first window ${seeded.nextWindow}`);
        const pass = await withDb((ctx) => releaseDue(ctx, new Date(released)));
        assert.ok(pass.released >= 1, `the first window released: ${JSON.stringify(pass)}`);
        const first = await cliJson(
          'simulate',
          '--once',
          '--at',
          new Date(released + 1000).toISOString(),
        );
        assert.equal(first.workers, 1, `the demo worker is simulated: ${JSON.stringify(first)}`);
        assert.ok(first.claimed >= 1, `released tasks are claimed: ${JSON.stringify(first)}`);
        assert.equal(first.posted, 0, 'nothing is posted before the post delay');
        assert.equal(first.statusReports, 4, 'a minute after the warm-up began, all are active');
        const second = await cli(
          'simulate',
          '--once',
          '--at',
          new Date(released + 60_000).toISOString(),
        );
        assert.match(
          second,
          new RegExp(
            `^1 simulated worker\\(s\\): 0 account status report\\(s\\), claimed 0, posted ${first.claimed}, ${first.claimed} snapshot\\(s\\)`,
          ),
        );
        const posted = await withDb((ctx) =>
          ctx.db
            .selectFrom('queue_items')
            .select(['post_url', 'claimed_by'])
            .where('account_id', 'in', seeded.accountIds)
            .where('status', '=', 'posted')
            .execute(),
        );
        assert.equal(posted.length, first.claimed);
        assert.ok(
          posted.every(
            (p) =>
              p.claimed_by === seeded.worker.workerId &&
              /^https:\/\/platform-[ab]\.example\//.test(p.post_url ?? ''),
          ),
          `posted by the demo worker with a URL: ${JSON.stringify(posted)}`,
        );
      },
    );

    test(
      'worker create, list, assign, update, unassign, rotate-token, revoke',
      { timeout: 300_000 },
      async () => {
        assert.ok(demo, 'the demo was seeded by the test above');
        const [a1, a2] = demo.accountIds as [string, string];

        const w = await cliJson(
          'worker',
          'create',
          '--name',
          'Phone 1',
          '--timezone',
          'Europe/Berlin',
        );
        assert.match(w.token, /^slw_[0-9a-z]{12}_[0-9a-z]{32}$/);
        assert.equal(w.timezone, 'Europe/Berlin');
        assert.equal(w.simulated, false);
        const stored = await withDb((ctx) =>
          ctx.db
            .selectFrom('workers')
            .selectAll()
            .where('id', '=', w.workerId)
            .executeTakeFirstOrThrow(),
        );
        assert.equal(stored.token_hash, sha256(w.token).toString('hex'), 'only a digest is stored');
        assert.ok(!Object.values(stored).includes(w.token), 'the token itself is stored nowhere');
        const listed = await cli('worker', 'list');
        assert.match(listed, new RegExp(`${w.workerId}  Europe/Berlin  0 account\\(s\\)  Phone 1`));
        assert.ok(!listed.includes(w.token), 'the token is shown only once');

        const assigned = await cliJson(
          'worker',
          'assign',
          w.workerId,
          '--accounts',
          `${a1}, ${a2}`,
        );
        assert.equal(assigned.worker.accounts, 2);
        assert.deepEqual(
          (await accountRows([a1, a2])).map((r) => [r.worker_id, r.timezone]),
          [
            [w.workerId, 'Europe/Berlin'],
            [w.workerId, 'Europe/Berlin'],
          ].sort(),
          'assigned accounts take the worker’s timezone',
        );
        const moved = await cliJson(
          'worker',
          'update',
          w.workerId,
          '--timezone',
          'Asia/Tokyo',
          '--name',
          'Phone A',
        );
        assert.equal(moved.timezone, 'Asia/Tokyo');
        assert.equal(moved.name, 'Phone A');
        assert.ok(
          (await accountRows([a1, a2])).every((r) => r.timezone === 'Asia/Tokyo'),
          "the worker's accounts move with it",
        );

        assert.deepEqual(await cliJson('worker', 'unassign', '--accounts', a2), {
          workerId: null,
          accountIds: [a2],
        });
        assert.equal((await accountRows([a2]))[0]?.worker_id, null);

        const rotated = await cliJson('worker', 'rotate-token', w.workerId);
        assert.match(rotated.token, /^slw_/);
        assert.notEqual(rotated.token, w.token);
        const shown = await cli('worker', 'show', w.workerId);
        assert.match(shown, new RegExp(`token: +slw_${rotated.tokenPrefix}_…`));
        assert.match(shown, /accounts: +1\n/);
        const revoked = await cliJson('worker', 'revoke', w.workerId);
        assert.ok(revoked.revokedAt, 'revokedAt is set');

        // Operator mistakes: a message and exit code 1, no stack trace.
        const badZone = await cliFails(
          'worker',
          'create',
          '--name',
          'X',
          '--timezone',
          'Mars/Base',
        );
        assert.match(badZone, /^slotline: "Mars\/Base" is not an IANA timezone/);
        assert.ok(!/\n\s+at /.test(badZone), `no stack trace: ${badZone}`);
        assert.match(
          await cliFails('worker', 'update', 'wrk_nope', '--name', 'Y'),
          /worker wrk_nope does not exist/,
        );
        assert.match(
          await cliFails('worker', 'assign', w.workerId, '--accounts', a2),
          /is revoked/,
        );
      },
    );
  });
}
