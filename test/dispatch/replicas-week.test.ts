// Two dispatcher replicas on one PostgreSQL database over a simulated week that crosses a DST
// change (reliability F4): stepping a fake clock every 15 minutes, both run a pass at every
// step. No account ever gets two releases in one window or more than 4 in a local day, every
// release falls in its window, and with items always waiting every full local day has
// exactly its 4 releases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany } from '../helpers/app.ts';
import { makeActiveAccounts, readyUpload } from '../helpers/posts.ts';
import { openContext } from '../../src/bootstrap.ts';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import {
  DAY_MS,
  localDateOf,
  localDayBounds,
  minutesOf,
  offsetMs,
  zoneOf,
} from '../../src/schedule/local-time.ts';
import { assignAccounts, createWorker } from '../../src/modules/workers/index.ts';

// America/New_York springs forward on 2026-03-08; Pacific/Chatham runs at +13:45.
const TIMEZONES = ['America/New_York', 'Asia/Kathmandu', 'Pacific/Chatham', 'UTC'];
const START = Date.parse('2026-03-05T00:00:00.000Z');
const END = Date.parse('2026-03-12T00:00:00.000Z');
const STEP_MS = 15 * 60 * 1000;
const POSTS = 32; // more than 7 days x 4 windows: every window has an item waiting

describeEachDialect('dispatcher replicas over a week', (get, dialect) => {
  test(
    'two replicas keep one release per window and 4 per local day across DST',
    { skip: dialect === 'sqlite' && 'one dispatcher process only on SQLite' },
    async () => {
      const t = get();
      t.clock.set(new Date(START - DAY_MS).toISOString());
      const call = client(t, (await seedCompany(t, { plan: 'scale' })).key);
      const accounts = await makeActiveAccounts(t, call, TIMEZONES.length);
      const timezoneOf = new Map<string, string>();
      for (const [i, timezone] of TIMEZONES.entries()) {
        const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: `w${i}`, timezone });
        await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [accounts[i]!]);
        timezoneOf.set(accounts[i]!, timezone);
      }
      const video = await readyUpload(t, call, 'h264-noaudio.mp4');
      for (let i = 0; i < POSTS; i++) {
        const r = await call('POST', '/v2/posts', {
          media: [video],
          accountIds: accounts,
          skipApproval: true,
        });
        assert.equal(r.status, 201, JSON.stringify(r.body));
      }
      const other = await openContext(t.config, { clock: t.clock, skipMigrations: true });
      try {
        for (let at = START; at < END; at += STEP_MS) {
          t.clock.set(new Date(at).toISOString());
          await Promise.all([releaseDue(t.ctx, new Date(at)), releaseDue(other.ctx, new Date(at))]);
        }
      } finally {
        await other.close();
      }
      const releases = await t.ctx.db
        .selectFrom('releases')
        .select(['account_id', 'local_date', 'slot_label', 'slot_kind', 'released_at'])
        .where('account_id', 'in', accounts)
        .execute();
      const perDay = new Map<string, number>();
      const perWindow = new Set<string>();
      for (const r of releases) {
        const timezone = timezoneOf.get(r.account_id)!;
        const ts = Date.parse(r.released_at);
        const day = `${r.account_id} ${localDateOf(ts, timezone)}`;
        assert.equal(localDateOf(ts, timezone), r.local_date, 'released on its local date');
        perDay.set(day, (perDay.get(day) ?? 0) + 1);
        const window = `${day} ${r.slot_label}`;
        assert.ok(!perWindow.has(window), `two releases in ${window}`);
        perWindow.add(window);
        // After its window opened, in the account's wall-clock time; within one step of it,
        // except at the first step, which catches up on the window then in progress.
        const local = (ts + offsetMs(zoneOf(timezone), ts)) % DAY_MS;
        const late = local - minutesOf(r.slot_label) * 60_000;
        assert.ok(late >= 0, `${window} released before its window`);
        if (ts > START) assert.ok(late < STEP_MS, `${window} released ${late / 60_000} min late`);
        assert.equal(r.slot_kind, 'window', 'no make-up slot is needed when items always wait');
      }
      for (const [day, n] of perDay) assert.ok(n <= 4, `${day}: ${n} releases`);
      // Every local day that lies wholly inside the simulated week has all 4 windows used.
      const fullDays = new Set<string>();
      for (const account of accounts) {
        const timezone = timezoneOf.get(account)!;
        for (let ts = START; ts < END; ts += DAY_MS / 2) {
          const date = localDateOf(ts, timezone);
          const { start, end } = localDayBounds(date, timezone);
          if (start.getTime() < START || end.getTime() > END) continue;
          fullDays.add(`${account} ${date}`);
          assert.equal(perDay.get(`${account} ${date}`), 4, `${account} ${timezone} ${date}`);
        }
      }
      assert.ok(fullDays.size >= TIMEZONES.length * 6, `${fullDays.size} full local days checked`);
    },
  );
});
