#!/usr/bin/env node
// The `slotline` command. It runs the compiled JavaScript under dist/, which `npm ci` builds
// (the `prepare` script) and `npm run build` rebuilds. SLOTLINE_FROM_SOURCE=1 runs the
// TypeScript sources through tsx instead, for development without a build (tsx is a
// development dependency, so production never loads it).
import { fileURLToPath } from 'node:url';

const fromSource = process.env.SLOTLINE_FROM_SOURCE === '1';
let cli;
if (fromSource) {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../src/cli/index.ts');
} else {
  const entry = new URL('../dist/cli/index.js', import.meta.url);
  try {
    cli = await import(entry.href);
  } catch (err) {
    // Only the entry itself missing means "not built"; anything else is a real failure.
    const missing = String(err?.message).includes(fileURLToPath(entry));
    if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !missing) {
      throw err;
    }
    console.error('slotline: dist/ is not built: run `npm run build` (npm ci runs it)');
    process.exit(1);
  }
}
await cli.runCli(process.argv);
