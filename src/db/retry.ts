import { isRetryableConflict } from './errors.ts';

/**
 * Runs `transaction` again when PostgreSQL rolled it back to break a deadlock or a
 * serialization failure, at most `attempts` times in all: the caller is never told to
 * retry what the service can. `transaction` must be a whole transaction (it starts and
 * commits its own), so each run starts afresh. SQLite writes one transaction at a time
 * and never reports either.
 */
export async function retryingConflicts<T>(
  transaction: () => Promise<T>,
  attempts = 4,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (err) {
      if (!isRetryableConflict(err) || attempt >= attempts) throw err;
      // A moment's wait, growing, so the transaction that went on can finish first.
      await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
    }
  }
}
