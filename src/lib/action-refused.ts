import { REFUSAL_CATALOG, type RefusalReason } from '../errors.ts';
import { CliError } from './cli-error.ts';

/**
 * An action refused for a reason the person can act on, worded for people: a page answers
 * it with the status of its reason in the catalog (errors.ts) and its message, the CLI
 * prints the message.
 */
export class ActionRefused extends CliError {
  readonly status: (typeof REFUSAL_CATALOG)[RefusalReason];

  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
    this.status = REFUSAL_CATALOG[reason];
  }
}
