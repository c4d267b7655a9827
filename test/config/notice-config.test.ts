// The hand-off and report reminder times: 15 and 30 minutes by default, any whole number of
// minutes from 1 to 240, and a ConfigError naming the variable for anything else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config.ts';

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/x', ...env });

test('15 and 30 minutes unless set', () => {
  const config = load({});
  assert.equal(config.handoffUnclaimedMs, 15 * 60_000);
  assert.equal(config.reportReminderMs, 30 * 60_000);
  const set = load({ HANDOFF_UNCLAIMED_MINUTES: '5', REPORT_REMINDER_MINUTES: '240' });
  assert.equal(set.handoffUnclaimedMs, 5 * 60_000);
  assert.equal(set.reportReminderMs, 240 * 60_000);
});

test('out of bounds or not a whole number is refused by name', () => {
  for (const name of ['HANDOFF_UNCLAIMED_MINUTES', 'REPORT_REMINDER_MINUTES']) {
    for (const bad of ['0', '241', '1.5', 'soon']) {
      assert.throws(
        () => load({ [name]: bad }),
        (err: unknown) =>
          err instanceof ConfigError &&
          err.message === `${name} must be an integer between 1 and 240 (got "${bad}")`,
        `${name}=${bad}`,
      );
    }
  }
});
