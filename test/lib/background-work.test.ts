// The one pattern of background work (lib/periodic.ts) and the database-scoped wake-up
// signal the webhook loop listens to (db/signals.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startPeriodic } from '../../src/lib/periodic.ts';
import { onSignal, raise } from '../../src/db/signals.ts';
import { connect } from '../../src/db/connect.ts';

test('a periodic pass runs at once, one at a time, and a kick during one runs one more after it', async () => {
  let passes = 0;
  let concurrent = 0;
  let most = 0;
  let release: () => void = () => {};
  const loop = startPeriodic(
    async () => {
      passes += 1;
      concurrent += 1;
      most = Math.max(most, concurrent);
      await new Promise<void>((r) => (release = r));
      concurrent -= 1;
    },
    60_000,
    { onError: (err) => assert.fail(String(err)) },
  );
  await sleep(5);
  assert.equal(passes, 1, 'the first pass starts at once');
  loop.kick();
  loop.kick();
  await sleep(5);
  assert.equal(passes, 1, 'kicks wait for the pass under way');
  release();
  await sleep(5);
  assert.equal(passes, 2, 'kicks during a pass run exactly one more');
  release();
  await sleep(5);
  assert.equal(passes, 2);
  assert.equal(most, 1);
  await loop.stop();
  loop.kick();
  await sleep(5);
  assert.equal(passes, 2, 'a kick after stop does nothing');
});

test('a failing pass is reported with what it threw, and the next one still runs', async () => {
  const errors: unknown[] = [];
  let passes = 0;
  const loop = startPeriodic(
    () => {
      passes += 1;
      if (passes === 1) throw new Error('synchronous failure');
      return Promise.reject(new Error('asynchronous failure'));
    },
    10,
    { onError: (err) => errors.push(err) },
  );
  await sleep(60);
  await loop.stop();
  assert.ok(passes >= 2);
  assert.equal((errors[0] as Error).message, 'synchronous failure');
  assert.equal((errors[1] as Error).message, 'asynchronous failure');
  assert.equal(errors.length, passes);
});

test('a first delay holds the first pass back, and stop waits for the pass under way', async () => {
  let passes = 0;
  let finished = false;
  const loop = startPeriodic(
    async () => {
      passes += 1;
      await sleep(30);
      finished = true;
    },
    60_000,
    { onError: () => {} },
    { firstDelayMs: 20 },
  );
  await sleep(5);
  assert.equal(passes, 0);
  await sleep(30);
  assert.equal(passes, 1);
  await loop.stop();
  assert.equal(finished, true, 'stop resolved only after the pass ended');
});

test('a signal wakes the listeners of its own database only, and not after they leave', async () => {
  const a = connect({ databaseUrl: null, dataDir: '.', sqliteFile: ':memory:' });
  const b = connect({ databaseUrl: null, dataDir: '.', sqliteFile: ':memory:' });
  try {
    const heard: string[] = [];
    const leaveA = onSignal(a.db, 'events', () => heard.push('a'));
    onSignal(b.db, 'events', () => heard.push('b'));
    onSignal(a.db, 'other', () => heard.push('a-other'));
    await a.db.transaction().execute(async (tx) => raise(tx, 'events'));
    await sleep(20);
    assert.deepEqual(heard, ['a'], 'a transaction of a wakes a, not b nor another name');
    leaveA();
    raise(a.db, 'events');
    await sleep(20);
    assert.deepEqual(heard, ['a']);
  } finally {
    await a.close();
    await b.close();
  }
});
