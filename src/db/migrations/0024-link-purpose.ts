import type { Kysely, Migration } from 'kysely';

// Why a one-time sign-in link of a company user or an operator was made. An `invite` (an
// invitation, or a reset by an admin) starts the person over: a new password and, for an
// operator, a new authenticator. A `recover` link ("Forgot your password?") only sets a new
// password: an operator's second factor stays and is asked for next. Older links were all
// invitations.
export const linkPurpose: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['user_links', 'operator_links']) {
      await db.schema
        .alterTable(table)
        .addColumn('purpose', 'text', (c) => c.notNull().defaultTo('invite'))
        .execute();
    }
  },
};
