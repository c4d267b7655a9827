// What operators do to companies from the console: create one, change its plan and
// capabilities, suspend and resume it, invite its first admin. Each action is one
// transaction holding the change, its entry in the operator log and its entry in the
// company's activity log (naming the operator). Also the overview the console lists:
// each company with its plan, accounts, posts created today, delivery figures over 7 days
// and suspension.
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PlanTable } from '../../plans.ts';
import { countCompanyAccounts } from '../accounts/index.ts';
import {
  changeCompany,
  createCompany,
  getCompany,
  pageCompanies,
  setCompanySuspended,
  type CompanyChange,
  type CompanyInfo,
} from '../companies/index.ts';
import { deliveryFigures, type DeliveryFigures } from '../items/index.ts';
import { postsCreatedToday } from '../usage/index.ts';
import {
  inviteUser,
  listUsers,
  UserError,
  type IssuedUserLink,
  type UserInfo,
} from '../users/index.ts';
import { companyActor, recordOperatorAction, type OperatorActor } from './operator-log.service.ts';
import { CONSOLE_FIGURES_DAYS } from './operator-workers.service.ts';

/** A company as the console lists it. */
export interface CompanyOverview {
  company: CompanyInfo;
  accounts: number;
  /** Posts created today (UTC), counted as `GET /v2/usage` counts `postsCreatedToday`. */
  postsToday: number;
  /** Delivery figures of its released items over the last 7 UTC days. */
  figures: DeliveryFigures;
}

/**
 * A page of companies, newest first, with their counts; `before` is the (createdAt,
 * companyId) of the last one seen, `nameContains` a part of the name to look for.
 */
export async function companyOverview(
  db: Db,
  clock: Clock,
  opts: { before?: [string, string]; limit: number; nameContains?: string },
): Promise<CompanyOverview[]> {
  const companies = await pageCompanies(db, opts);
  const ids = companies.map((c) => c.companyId);
  const now = clock.now();
  const [accounts, posts, figures] = await Promise.all([
    countCompanyAccounts(db, ids),
    postsCreatedToday(db, ids, now),
    deliveryFigures(db, 'company', ids, now, CONSOLE_FIGURES_DAYS),
  ]);
  return companies.map((company) => ({
    company,
    accounts: accounts.get(company.companyId) ?? 0,
    postsToday: posts.get(company.companyId) ?? 0,
    figures: figures.get(company.companyId) as DeliveryFigures,
  }));
}

/** One company with its counts and its people; undefined for an unknown id. */
export async function companyDetail(
  db: Db,
  clock: Clock,
  companyId: string,
): Promise<(CompanyOverview & { users: UserInfo[] }) | undefined> {
  const company = await getCompany(db, companyId);
  if (!company) return undefined;
  const now = clock.now();
  const [accounts, posts, users, figures] = await Promise.all([
    countCompanyAccounts(db, [companyId]),
    postsCreatedToday(db, [companyId], now),
    listUsers(db, companyId),
    deliveryFigures(db, 'company', [companyId], now, CONSOLE_FIGURES_DAYS),
  ]);
  return {
    company,
    accounts: accounts.get(companyId) ?? 0,
    postsToday: posts.get(companyId) ?? 0,
    figures: figures.get(companyId) as DeliveryFigures,
    users,
  };
}

export interface NewCompany {
  name: string;
  plan: string;
  platformBFeedPosts: boolean;
  defaultTimezone?: string;
}

export async function operatorCreateCompany(
  db: Db,
  clock: Clock,
  plans: PlanTable,
  actor: OperatorActor,
  input: NewCompany,
): Promise<CompanyInfo> {
  const now = clock.now();
  return db.transaction().execute(async (tx) => {
    const company = await createCompany(tx, clock, plans, input, companyActor(actor));
    await recordOperatorAction(
      tx,
      actor,
      {
        action: 'company.created',
        companyId: company.companyId,
        target: company.companyId,
        details: {
          name: company.name,
          plan: company.plan,
          platformBFeedPosts: company.platformBFeedPosts,
          defaultTimezone: company.defaultTimezone,
        },
      },
      now,
    );
    return company;
  });
}

/** Changes the plan and the platformB feed-post capability; records what changed, if anything. */
export async function operatorChangeCompany(
  db: Db,
  clock: Clock,
  plans: PlanTable,
  actor: OperatorActor,
  companyId: string,
  input: { plan: string; platformBFeedPosts: boolean },
): Promise<{ company: CompanyInfo; changes: CompanyChange[] }> {
  const now = clock.now();
  return db.transaction().execute(async (tx) => {
    const result = await changeCompany(tx, clock, plans, companyId, input, companyActor(actor));
    if (result.changes.length > 0) {
      await recordOperatorAction(
        tx,
        actor,
        {
          action: 'company.updated',
          companyId,
          target: companyId,
          details: { name: result.company.name, changes: result.changes },
        },
        now,
      );
    }
    return result;
  });
}

/**
 * Suspends (`suspend` true) or resumes the company; `changed` is false when it already was
 * in that state, and then nothing is recorded.
 */
export async function operatorSuspendCompany(
  db: Db,
  clock: Clock,
  actor: OperatorActor,
  companyId: string,
  suspend: boolean,
  reason?: string,
): Promise<{ company: CompanyInfo; changed: boolean }> {
  const now = clock.now();
  const why = reason?.trim() || null;
  return db.transaction().execute(async (tx) => {
    const result = await setCompanySuspended(
      tx,
      clock,
      companyId,
      suspend,
      companyActor(actor),
      why ?? undefined,
    );
    if (result.changed) {
      await recordOperatorAction(
        tx,
        actor,
        {
          action: suspend ? 'company.suspended' : 'company.resumed',
          companyId,
          target: companyId,
          details: { name: result.company.name, ...(suspend ? { reason: why } : {}) },
        },
        now,
      );
    }
    return result;
  });
}

/**
 * Invites an admin of the company: a new user with the admin role and a one-time sign-in
 * link (returned once) through which it sets its password.
 */
export async function operatorInviteAdmin(
  db: Db,
  clock: Clock,
  actor: OperatorActor,
  companyId: string,
  email: string,
): Promise<{ user: UserInfo; link: IssuedUserLink }> {
  const now = clock.now();
  try {
    return await db.transaction().execute(async (tx) => {
      const invited = await inviteUser(
        tx,
        clock,
        { companyId, email, role: 'admin' },
        companyActor(actor),
      );
      await recordOperatorAction(
        tx,
        actor,
        {
          action: 'user.invited',
          companyId,
          target: invited.user.userId,
          details: { email: invited.user.email, role: invited.user.role },
        },
        now,
      );
      return invited;
    });
  } catch (err) {
    // Invited by someone else since inviteUser checked.
    if (isUniqueViolation(err))
      throw new UserError(`user ${email.trim().toLowerCase()} already exists`);
    throw err;
  }
}
