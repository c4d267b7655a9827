// The systemd unit in deploy/ is checked the way systemd itself reads it: no unknown key,
// no bad value, an executable ExecStart. Where systemd-analyze is missing, the test says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const UNIT = 'deploy/slotline@.service';
const available = spawnSync('systemd-analyze', ['--version']).status === 0;

test(
  'deploy/slotline@.service passes systemd-analyze verify',
  { skip: !available && 'systemd-analyze is not installed' },
  async () => {
    const text = await readFile(UNIT, 'utf8');
    assert.match(text, /^ExecStart=\/usr\/bin\/node \/opt\/slotline\/bin\/slotline\.js serve$/m);
    // The unit names the usual install paths; this machine's node stands in for /usr/bin/node.
    const dir = await mkdtemp(join(tmpdir(), 'slotline-unit-'));
    try {
      const instance = join(dir, 'slotline@8081.service');
      await writeFile(instance, text.replace('/usr/bin/node', process.execPath));
      const { stdout, stderr } = await run('systemd-analyze', ['verify', instance], {
        timeout: 30_000,
      });
      assert.equal(stdout + stderr, '', 'systemd-analyze reports nothing');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);
