// `slotline --version` prints this build's version (package.json) and exits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { buildCli } from '../../src/cli/index.ts';

test('slotline --version and -V print the package version', async () => {
  const { version } = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
  for (const flag of ['--version', '-V']) {
    let out = '';
    const program = buildCli()
      .exitOverride()
      .configureOutput({ writeOut: (s) => (out += s) });
    await assert.rejects(
      program.parseAsync(['node', 'slotline', flag]),
      (e: { code?: string }) => e.code === 'commander.version',
    );
    assert.equal(out, `${version}\n`);
  }
});
