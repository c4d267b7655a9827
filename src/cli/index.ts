// The `slotline` command: the service and its operator tasks, one file per command group.
// Only commander and the command files load up front; each command loads the service code
// it needs when it runs, so `slotline --help` starts in a fraction of the service's time.
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { CliError } from '../lib/cli-error.ts';
import { registerApprovals } from './approvals.command.ts';
import { registerCompany } from './company.command.ts';
import { registerLoops } from './dispatch.command.ts';
import { registerKey } from './key.command.ts';
import { registerOperator } from './operator.command.ts';
import { registerSeed } from './seed.command.ts';
import { registerServe } from './serve.command.ts';
import { registerUser } from './user.command.ts';
import { registerWorker } from './worker.command.ts';
import { registerWorkspace } from './workspace.command.ts';

/** The version of this build, from its package.json (two levels up from src/cli and dist/cli). */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

export function buildCli(): Command {
  const program = new Command('slotline')
    .description('Slotline publishing service')
    .version(packageVersion(), '-V, --version', 'print the version')
    .showHelpAfterError();
  // Registered in the order `slotline --help` lists them.
  registerServe(program);
  registerLoops(program);
  registerCompany(program);
  registerKey(program);
  registerUser(program);
  registerOperator(program);
  registerWorker(program);
  registerWorkspace(program);
  registerApprovals(program);
  registerSeed(program);
  return program;
}

export async function runCli(argv: string[]): Promise<void> {
  try {
    await buildCli().parseAsync(argv);
  } catch (err) {
    if (err instanceof CliError) {
      console.error(`slotline: ${err.message}`);
      process.exitCode = 1;
      return;
    }
    throw err;
  }
}
