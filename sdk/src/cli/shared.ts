// What every `slotline-client` command shares: its output streams, the parsed arguments,
// and the error for a command line that cannot run (exit code 2).
import type { SlotlineClient } from '../client.ts';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Whether stderr is a terminal (progress bars) or a pipe or file (plain lines). */
  errIsTty: boolean;
  env: Record<string, string | undefined>;
  /** stdout as a stream, for output written as fast as its reader takes it (exports). */
  stdout?: NodeJS.WritableStream;
}

export function processIo(): CliIo {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    errIsTty: process.stderr.isTTY === true,
    env: process.env,
    stdout: process.stdout,
  };
}

export type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;

export interface CommandContext {
  api: SlotlineClient;
  values: Values;
  positionals: string[];
  io: CliIo;
}

/** A command line that cannot run as given: printed with a pointer to --help, exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function stringOption(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/** A repeatable option's values; each may also be a comma-separated list. */
export function listOption(values: Values, name: string): string[] {
  const value = values[name];
  const given = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  return given
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

/** An option in seconds (fractions allowed) as milliseconds; `undefined` when not given. */
export function secondsOption(values: Values, name: string): number | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(`--${name} must be a number of seconds above 0, not '${text}'`);
  }
  return Math.round(seconds * 1000);
}
