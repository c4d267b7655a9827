// "Forgot your password?" on the dashboard's sign-in page: a one-time link, valid an hour,
// mailed to the address if it belongs to an enabled user of a company that is not
// suspended. The answer is the same whether or not it does, and requests are limited per
// address asked for and per client address like sign-ins (every request counts, answered or
// not), so the form neither tells who has an account nor sends a flood of mail. The link
// ends the user's older links; the password in use keeps working until the link is used.
import type { Db } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { getCompanyRow } from '../companies/index.ts';
import type { Mailing } from '../outbox/index.ts';
import {
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ADDRESS,
  reserveSignInAttempt,
} from '../sign-in/index.ts';
import { USER_RECOVER_LINK_MS, issueLink } from './user-links.service.ts';
import { recoverMail } from './user-mail.rules.ts';
import * as repo from './users.repository.ts';

/**
 * Mails a link for a new password to `email` when a user may sign in with it. Answers the
 * seconds to wait when the limit refuses (0 otherwise), never whether the address is known.
 */
export async function requestUserRecovery(
  db: Db,
  clock: Clock,
  mailing: Mailing,
  input: { email: string; address: string },
): Promise<number> {
  const email = input.email.trim().toLowerCase().slice(0, 254);
  const wait = await reserveSignInAttempt(db, clock, [
    { key: `recover-user:${email}`, max: MAX_FAILURES_PER_ACCOUNT },
    { key: `recover-ip:${input.address}`, max: MAX_FAILURES_PER_ADDRESS },
  ]);
  if (wait > 0) return wait;
  const user = await repo.findByEmail(db, email);
  if (!user || user.disabled_at !== null) return 0;
  const company = await getCompanyRow(db, user.company_id);
  if (!company || company.suspended_at !== null) return 0;
  const now = clock.now();
  await db.transaction().execute((tx) =>
    issueLink(tx, user, now, 'recover', {
      mailing,
      kind: 'password_reset',
      content: (url, expiresAt) =>
        recoverMail({
          email: user.email,
          companyName: company.name,
          url,
          expiresAt,
          timezone: user.timezone,
          minutes: USER_RECOVER_LINK_MS / 60_000,
        }),
    }),
  );
  return 0;
}
