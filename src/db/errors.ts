/** True when a database error is a unique-constraint violation (either dialect). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string } | null;
  return (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** True when PostgreSQL aborted the transaction to break a deadlock; it may be run again. */
export function isDeadlock(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === '40P01';
}
