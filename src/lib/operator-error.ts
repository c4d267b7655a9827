/**
 * An error an operator can fix (bad input, an unknown id, a bad setting): the `slotline`
 * command prints its message alone and exits 1. Every such error class extends this one so
 * the CLI recognises them without importing the modules that define them, which it loads
 * only when a command runs.
 */
export class OperatorError extends Error {}
