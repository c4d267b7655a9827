// The sign_in_attempts table: failed sign-ins counted per key (an account's email or a
// client address) in a fixed window.
import type { DbOrTx, SignInAttemptsTable } from '../../db/types.ts';

export async function findAttempts(
  db: DbOrTx,
  keys: readonly string[],
): Promise<SignInAttemptsTable[]> {
  if (keys.length === 0) return [];
  return db
    .selectFrom('sign_in_attempts')
    .selectAll()
    .where('key', 'in', [...keys])
    .execute();
}

/** One more failure for the key: a new window from `at` when the old one ended before `since`. */
export async function countFailure(
  db: DbOrTx,
  key: string,
  at: string,
  since: string,
): Promise<void> {
  await db
    .insertInto('sign_in_attempts')
    .values({ key, window_start: at, failures: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => ({
        failures: eb
          .case()
          .when('sign_in_attempts.window_start', '<', since)
          .then(1)
          .else(eb('sign_in_attempts.failures', '+', 1))
          .end(),
        window_start: eb
          .case()
          .when('sign_in_attempts.window_start', '<', since)
          .then(at)
          .else(eb.ref('sign_in_attempts.window_start'))
          .end(),
      })),
    )
    .execute();
}

export async function clearAttempts(db: DbOrTx, key: string): Promise<void> {
  await db.deleteFrom('sign_in_attempts').where('key', '=', key).execute();
}
