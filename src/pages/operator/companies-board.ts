// The console's companies board: each company with its plan, accounts, posts created
// today, delivery figures over the last days and suspension; one company with its people.
// Read through module faces.
import type { Db } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { countCompanyAccounts } from '../../modules/accounts/index.ts';
import { getCompany, pageCompanies, type CompanyInfo } from '../../modules/companies/index.ts';
import { deliveryFigures, type DeliveryFigures } from '../../modules/items/index.ts';
import { postsCreatedToday } from '../../modules/usage/index.ts';
import { listUsers, type UserInfo } from '../../modules/users/index.ts';
import { CONSOLE_FIGURES_DAYS } from './workers-board.ts';

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
