#!/usr/bin/env node
// The `slotline-client` command: a thin command line over the SDK (see run.ts).
import { runClientCli } from './run.ts';

process.exitCode = await runClientCli(process.argv.slice(2));
