// What several console pages share about the values they show and take: the timezone
// suggestions of the forms, the words for an account's status, and how a refusal of the
// services reads on a page.
import { ActionRefused } from '../../lib/action-refused.ts';
import { CliError } from '../../lib/cli-error.ts';

/** Every IANA timezone the runtime knows, for the timezone fields' suggestions. */
export const TIMEZONES: readonly string[] = Intl.supportedValuesOf('timeZone');

/** The longest timezone name a form takes (the IANA names are far shorter). */
export const MAX_TIMEZONE = 64;

const STATUS_TEXT: Record<string, string> = {
  pending_setup: 'Waiting for set-up',
  warming_up: 'Warming up',
  active: 'Active',
  paused: 'Paused by the company',
  disconnected: 'Disconnected',
};

/** An account's status in words. */
export function statusText(status: string): string {
  return STATUS_TEXT[status] ?? status;
}

/** A service's message as a sentence: its first letter capital, a full stop at its end. */
export function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * A refusal of the services as a page answers it: the operators module's as it is (its
 * reason gives the status), another operator mistake as invalid input saying what it is.
 */
export function pageErrorOf(err: unknown): unknown {
  if (err instanceof ActionRefused) return err;
  if (err instanceof CliError) return new ActionRefused('invalid', sentence(err.message));
  return err;
}
