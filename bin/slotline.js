#!/usr/bin/env node
// Runs the TypeScript sources directly; no build step is needed.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/index.ts');
await runCli(process.argv);
