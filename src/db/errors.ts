/** True when a database error is a unique-constraint violation (either dialect). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string } | null;
  return (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/**
 * True when PostgreSQL refused a text value it cannot store in its encoding (a NUL
 * character, 22021, or a character with no equivalent, 22P05): the input's fault, so the
 * request is answered as invalid rather than failed.
 */
export function isUnstorableText(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '22021' || code === '22P05';
}

/**
 * True when PostgreSQL detected a deadlock (40P01) or a serialization failure (40001): the
 * transaction was rolled back whole, and running it again may well succeed.
 */
export function isRetryableConflict(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '40P01' || code === '40001';
}
