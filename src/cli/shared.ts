// Helpers of the command files. Light on purpose: `slotline --help` loads this file, so the
// service code (database, Fastify, sharp) is loaded here only inside `withContext`, when a
// command runs.
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { Clock } from '../lib/clock.ts';
import { CliError } from '../lib/cli-error.ts';

/** A command line the operator can fix: a malformed option value or a missing one. */
export class UsageError extends CliError {}

export function print(json: boolean, value: unknown, text: string): void {
  console.log(json ? JSON.stringify(value, null, 2) : text);
}

/** Runs `fn` with the storage and context of the configured service, then closes them. */
export async function withContext<T>(
  fn: (ctx: AppContext, config: Config) => Promise<T>,
  clock?: Clock,
): Promise<T> {
  const [{ loadConfig }, { openContext }] = await Promise.all([
    import('../config.ts'),
    import('../bootstrap.ts'),
  ]);
  const config = loadConfig();
  const opened = await openContext(config, clock ? { clock } : {});
  try {
    return await fn(opened.ctx, config);
  } finally {
    await opened.close();
  }
}

/** `--at`: RFC 3339 with an offset, since a local time would leave the instant ambiguous. */
export function atInstant(value: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(
    value,
  );
  const ms = Date.parse(value);
  // Date.parse takes 2026-02-30 for March 2; the calendar does not.
  const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!m || Number.isNaN(ms) || day?.getUTCDate() !== Number(m[3])) {
    throw new UsageError(
      `--at must be an RFC 3339 date-time with an offset, such as 2026-03-04T08:00:00Z (got "${value}")`,
    );
  }
  return new Date(ms);
}

/** "a, b,c" -> ["a", "b", "c"] */
export function idList(value: string): string[] {
  return String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function onOff(value: string): boolean {
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new UsageError(`expected "on" or "off" (got "${value}")`);
}

/** Resolves when the process is asked to stop (Ctrl-C, or SIGTERM from a supervisor). */
export function untilSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}
