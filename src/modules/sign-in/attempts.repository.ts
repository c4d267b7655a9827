// The sign_in_attempts table: sign-in attempts of every audience counted per key (an
// account's email, a client address, an operator's code) in a fixed window. An attempt is
// reserved before its secret is checked and released again when it succeeds, so `failures`
// counts the attempts that failed or are still being checked.
import type { DbOrTx, SignInAttemptsTable } from '../../db/types.ts';

export async function findAttempt(
  db: DbOrTx,
  key: string,
): Promise<SignInAttemptsTable | undefined> {
  return db.selectFrom('sign_in_attempts').selectAll().where('key', '=', key).executeTakeFirst();
}

/**
 * Reserves one attempt under `key` when fewer than `max` are counted in the window (a
 * window that started at or before `since` is over: a new one starts at `at`). One statement,
 * so concurrent attempts on any number of replicas never pass the limit between them: on
 * PostgreSQL the upsert locks the row and its condition is checked again after the lock,
 * and SQLite writes one statement at a time. False when the limit is reached.
 */
export async function reserveAttempt(
  db: DbOrTx,
  key: string,
  max: number,
  at: string,
  since: string,
): Promise<boolean> {
  const row = await db
    .insertInto('sign_in_attempts')
    .values({ key, window_start: at, failures: 1 })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet((eb) => ({
          failures: eb
            .case()
            .when('sign_in_attempts.window_start', '<=', since)
            .then(1)
            .else(eb('sign_in_attempts.failures', '+', 1))
            .end(),
          window_start: eb
            .case()
            .when('sign_in_attempts.window_start', '<=', since)
            .then(at)
            .else(eb.ref('sign_in_attempts.window_start'))
            .end(),
        }))
        .where((eb) =>
          eb.or([
            eb('sign_in_attempts.window_start', '<=', since),
            eb('sign_in_attempts.failures', '<', max),
          ]),
        ),
    )
    .returning('failures')
    .executeTakeFirst();
  return row !== undefined;
}

/** Gives back one reserved attempt (the attempt succeeded, or was never made). */
export async function releaseAttempt(db: DbOrTx, key: string): Promise<void> {
  await db
    .updateTable('sign_in_attempts')
    .set((eb) => ({ failures: eb('failures', '-', 1) }))
    .where('key', '=', key)
    .where('failures', '>', 0)
    .execute();
}

export async function clearAttempts(db: DbOrTx, key: string): Promise<void> {
  await db.deleteFrom('sign_in_attempts').where('key', '=', key).execute();
}
