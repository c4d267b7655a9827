// Companies are created and changed by operators through the admin CLI.
import { validTimezone } from '../../schedule/local-time.ts';
import { newId } from '../../lib/ids.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Db, DbOrTx, CompaniesTable } from '../../db/types.ts';
import * as repo from './companies.repository.ts';
import type { PlanTable } from '../../plans.ts';
import { OperatorError } from '../../lib/operator-error.ts';

export interface CompanyInfo {
  companyId: string;
  name: string;
  description: string;
  website: string;
  plan: string;
  platformBFeedPosts: boolean;
  defaultTimezone: string | null;
  createdAt: string;
}

export class CompanyError extends OperatorError {}

function info(row: CompaniesTable): CompanyInfo {
  return {
    companyId: row.id,
    name: row.name,
    description: row.description,
    website: row.website,
    plan: row.plan,
    platformBFeedPosts: row.platformb_feed_posts === 1,
    defaultTimezone: row.default_timezone,
    createdAt: row.created_at,
  };
}

function checkPlan(plans: PlanTable, plan: string): void {
  if (!plans[plan]) {
    throw new CompanyError(`unknown plan "${plan}" (plans: ${Object.keys(plans).join(', ')})`);
  }
}

function checkTimezone(tz: string): void {
  if (!validTimezone(tz)) throw new CompanyError(`"${tz}" is not an IANA timezone`);
}

export interface CreateCompanyInput {
  name: string;
  plan: string;
  description?: string;
  website?: string;
  defaultTimezone?: string;
}

export async function createCompany(
  db: Db,
  clock: Clock,
  plans: PlanTable,
  input: CreateCompanyInput,
): Promise<CompanyInfo> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 200) throw new CompanyError('name must be 1-200 characters');
  checkPlan(plans, input.plan);
  if (input.defaultTimezone) checkTimezone(input.defaultTimezone);
  const now = clock.now().toISOString();
  const row: CompaniesTable = {
    id: newId('cmp'),
    name,
    description: input.description ?? '',
    website: input.website ?? '',
    plan: input.plan,
    platformb_feed_posts: 0,
    default_timezone: input.defaultTimezone ?? null,
    schedule_windows: null,
    created_at: now,
    updated_at: now,
  };
  await repo.insertCompany(db, row);
  return info(row);
}

export interface UpdateCompanyInput {
  plan?: string;
  platformBFeedPosts?: boolean;
  defaultTimezone?: string | null;
  description?: string;
  website?: string;
  name?: string;
}

export async function updateCompany(
  db: Db,
  clock: Clock,
  plans: PlanTable,
  companyId: string,
  input: UpdateCompanyInput,
): Promise<CompanyInfo> {
  const patch: Partial<CompaniesTable> = { updated_at: clock.now().toISOString() };
  if (input.plan !== undefined) {
    checkPlan(plans, input.plan);
    patch.plan = input.plan;
  }
  if (input.platformBFeedPosts !== undefined) {
    patch.platformb_feed_posts = input.platformBFeedPosts ? 1 : 0;
  }
  if (input.defaultTimezone !== undefined) {
    if (input.defaultTimezone !== null) checkTimezone(input.defaultTimezone);
    patch.default_timezone = input.defaultTimezone;
  }
  if (input.description !== undefined) patch.description = input.description;
  if (input.website !== undefined) patch.website = input.website;
  if (input.name !== undefined) patch.name = input.name;
  if (!(await repo.updateCompany(db, companyId, patch))) {
    throw new CompanyError(`company ${companyId} does not exist`);
  }
  return (await getCompany(db, companyId)) as CompanyInfo;
}

export async function getCompanyRow(
  db: DbOrTx,
  companyId: string,
): Promise<CompaniesTable | undefined> {
  return repo.findCompany(db, companyId);
}

export async function getCompany(db: DbOrTx, companyId: string): Promise<CompanyInfo | undefined> {
  const row = await getCompanyRow(db, companyId);
  return row ? info(row) : undefined;
}

export async function listCompanies(db: Db): Promise<CompanyInfo[]> {
  return (await repo.listCompanies(db)).map(info);
}

/**
 * Sets the company's default posting schedule (stored windows, or null to clear it);
 * returns whether the company exists.
 */
export function setCompanySchedule(
  db: DbOrTx,
  companyId: string,
  windows: string | null,
  at: string,
): Promise<boolean> {
  return repo.updateCompany(db, companyId, { schedule_windows: windows, updated_at: at });
}

/** The company row locked for update, for writes bounded by its plan. */
export function lockCompany(tx: DbOrTx, companyId: string): Promise<CompaniesTable | undefined> {
  return repo.lockCompany(tx, companyId);
}
