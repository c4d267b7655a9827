#!/usr/bin/env node
// The `slotline-client` command (the SDK's command line). It runs the compiled JavaScript
// under sdk/dist/, which `npm ci` builds (the `prepare` script) and `npm run build`
// rebuilds. SLOTLINE_FROM_SOURCE=1 runs the TypeScript sources through tsx instead, for
// development without a build (tsx is a development dependency).
import { fileURLToPath } from 'node:url';

if (process.env.SLOTLINE_FROM_SOURCE === '1') {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../sdk/src/cli/main.ts');
} else {
  const entry = new URL('../sdk/dist/cli/main.js', import.meta.url);
  try {
    await import(entry.href);
  } catch (err) {
    // Only the entry itself missing means "not built"; anything else is a real failure.
    const missing = String(err?.message).includes(fileURLToPath(entry));
    if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !missing) {
      throw err;
    }
    console.error('slotline-client: sdk/dist/ is not built: run `npm run build` (npm ci runs it)');
    process.exit(1);
  }
}
