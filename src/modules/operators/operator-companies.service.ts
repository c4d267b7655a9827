// What operators do to companies from the console: create one, change its plan and
// capabilities, suspend and resume it, invite its first admin. Each action is one
// transaction holding the change, its entry in the operator log and its entry in the
// company's activity log (naming the operator). The console's companies board reads
// beside its pages.
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PlanTable } from '../../plans.ts';

import {
  changeCompany,
  createCompany,
  setCompanySuspended,
  type CompanyChange,
  type CompanyInfo,
} from '../companies/index.ts';

import type { Mailing } from '../outbox/index.ts';
import { inviteUser, UserError, type IssuedUserLink, type UserInfo } from '../users/index.ts';
import { companyActor, recordOperatorAction, type OperatorActor } from './operator-log.service.ts';

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
  mailing: Mailing | null,
): Promise<{ user: UserInfo; link: IssuedUserLink }> {
  const now = clock.now();
  try {
    return await db.transaction().execute(async (tx) => {
      const invited = await inviteUser(
        tx,
        clock,
        { companyId, email, role: 'admin' },
        companyActor(actor),
        mailing,
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
