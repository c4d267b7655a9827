// Who signs in to the demo: its dashboard admin, with a new password on every seed, and the
// console's operator, with a new one-time sign-in link.
import {
  ADMIN_CLI,
  createOperator,
  listOperators,
  operatorWelcomeUrl,
  resetOperator,
} from '../modules/operators/index.ts';
import type { AppContext } from '../context.ts';
import { createUser, findUserByEmail, resetPassword } from '../modules/users/index.ts';

/** The dashboard user of the demo, an admin. */
export const DEMO_EMAIL = 'demo@slotline.local';
/** The operator of the demo, for the console. */
export const DEMO_OPERATOR_EMAIL = 'operator@slotline.local';

export interface SeedUser {
  userId: string;
  email: string;
  role: string;
  /** The first demo company: the user was made there by the first seed. */
  companyId: string;
  /** New on every seed, shown once. */
  password: string;
  signInUrl: string;
}

/** The demo operator: its one-time sign-in link to the console, new on every seed. */
export interface SeedOperator {
  email: string;
  signInUrl: string;
  expiresAt: string;
}

/** Creates the demo admin in this company, or gives the existing one a new password. */
export async function demoUser(ctx: AppContext, companyId: string): Promise<SeedUser> {
  const existing = await findUserByEmail(ctx.db, DEMO_EMAIL);
  const { user, password } = existing
    ? await resetPassword(ctx.db, ctx.clock, existing.userId)
    : await createUser(ctx.db, ctx.clock, { companyId, email: DEMO_EMAIL, role: 'admin' });
  return {
    userId: user.userId,
    email: user.email,
    role: user.role,
    companyId: user.companyId,
    password,
    signInUrl: `${ctx.config.publicUrl}/dashboard/`,
  };
}

/** The operator of the demo, made once; later seeds start it over with a new link. */
export async function demoOperator(ctx: AppContext): Promise<SeedOperator> {
  const existing = (await listOperators(ctx.db)).find((o) => o.email === DEMO_OPERATOR_EMAIL);
  const { link } = existing
    ? await resetOperator(ctx.db, ctx.clock, DEMO_OPERATOR_EMAIL, ADMIN_CLI, null)
    : await createOperator(
        ctx.db,
        ctx.clock,
        { email: DEMO_OPERATOR_EMAIL, name: 'Demo operator' },
        ADMIN_CLI,
        null,
      );
  return {
    email: DEMO_OPERATOR_EMAIL,
    signInUrl: operatorWelcomeUrl(ctx.config.publicUrl, link.token),
    expiresAt: link.expiresAt,
  };
}
