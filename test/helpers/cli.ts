// Runs the `slotline` command as an operator would, in a child process, against a fresh
// database per suite; and opens that database in the test process to check what it stored.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openContext } from '../../src/bootstrap.ts';
import { loadConfig } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import type { Dialect } from '../../src/db/types.ts';
import { createPgDatabase } from './databases.ts';

const run = promisify(execFile);

export interface CliHarness {
  /** A scratch directory of the suite (DATA_DIR is `<dir>/data`). */
  dir(): string;
  cli(...args: string[]): Promise<string>;
  cliJson(...args: string[]): Promise<any>;
  /** Runs a command that must fail as an operator error (exit code 1); its stderr. */
  cliFails(...args: string[]): Promise<string>;
  /** Runs a command, failing or not, with `env` added; its exit code, stdout and stderr. */
  cliRun(args: string[], env?: Record<string, string>): Promise<CliRun>;
  /** The CLI's database, opened in this process. */
  withDb<T>(fn: (ctx: AppContext) => Promise<T>): Promise<T>;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Call inside a `describe`: registers its before/after hooks. `extraEnv` is added to the
 * commands' environment (and to `withDb`'s configuration), e.g. a STORAGE_URL.
 */
export function useCli(dialect: Dialect, extraEnv: Record<string, string> = {}): CliHarness {
  let dir = '';
  let env: NodeJS.ProcessEnv = {};
  let drop: (() => Promise<void>) | undefined;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'slotline-cli-'));
    env = { ...process.env, DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent', ...extraEnv };
    delete env.DATABASE_URL;
    if (dialect === 'postgres') {
      const db = await createPgDatabase();
      env.DATABASE_URL = db.url;
      drop = db.drop;
    }
  });
  after(async () => {
    await drop?.();
    await rm(dir, { recursive: true, force: true });
  });

  async function cli(...args: string[]) {
    const { stdout } = await run(process.execPath, ['bin/slotline.js', ...args], {
      env,
      timeout: 60_000,
    });
    return stdout;
  }
  return {
    dir: () => dir,
    cli,
    cliJson: async (...args) => JSON.parse(await cli(...args, '--json')),
    async cliFails(...args) {
      try {
        await cli(...args);
      } catch (err) {
        const e = err as { code: number; stderr: string };
        assert.equal(e.code, 1);
        return e.stderr;
      }
      assert.fail(`expected failure: ${args.join(' ')}`);
    },
    async cliRun(args, extra = {}) {
      try {
        const { stdout, stderr } = await run(process.execPath, ['bin/slotline.js', ...args], {
          env: { ...env, ...extra },
          timeout: 60_000,
        });
        return { code: 0, stdout, stderr };
      } catch (err) {
        const e = err as { code: number; stdout: string; stderr: string };
        return { code: e.code, stdout: e.stdout, stderr: e.stderr };
      }
    },
    async withDb(fn) {
      const opened = await openContext(loadConfig(env), { skipMigrations: true });
      try {
        return await fn(opened.ctx);
      } finally {
        await opened.close();
      }
    },
  };
}
