/**
 * An error whoever runs the `slotline` command can fix (bad input, an unknown id, a bad
 * setting): the CLI prints its message alone and exits 1. Every such error class extends
 * this one so the CLI recognises them without importing the modules that define them, which
 * it loads only when a command runs.
 */
export class CliError extends Error {}
