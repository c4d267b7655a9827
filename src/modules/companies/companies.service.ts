// Companies are created and changed by operators: through the admin CLI, or through the
// operator console, which also suspends and resumes them. A change made for someone (an
// `actor`) is recorded in the company's activity log in the same transaction.
import { validTimezone } from '../../schedule/local-time.ts';
import { newId } from '../../lib/ids.ts';
import type { Clock } from '../../lib/clock.ts';
import type { DbOrTx, CompaniesTable } from '../../db/types.ts';
import * as repo from './companies.repository.ts';
import type { PlanTable } from '../../plans.ts';
import { CliError } from '../../lib/cli-error.ts';
import { recordActivity, type Actor } from '../activity/index.ts';

export interface CompanyInfo {
  companyId: string;
  name: string;
  description: string;
  website: string;
  plan: string;
  platformBFeedPosts: boolean;
  defaultTimezone: string | null;
  createdAt: string;
  /** When the company was suspended (its keys and users are refused); null when it is not. */
  suspendedAt: string | null;
}

export class CompanyError extends CliError {}

/** The longest company name. */
export const MAX_COMPANY_NAME = 200;

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
    suspendedAt: row.suspended_at,
  };
}

function checkPlan(plans: PlanTable, plan: string): void {
  if (!Object.hasOwn(plans, plan)) {
    throw new CompanyError(`unknown plan "${plan}" (plans: ${Object.keys(plans).join(', ')})`);
  }
}

function checkTimezone(tz: string): void {
  if (!validTimezone(tz)) throw new CompanyError(`"${tz}" is not an IANA timezone`);
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || [...trimmed].length > MAX_COMPANY_NAME) {
    throw new CompanyError(`name must be 1-${MAX_COMPANY_NAME} characters`);
  }
  return trimmed;
}

export interface CreateCompanyInput {
  name: string;
  plan: string;
  description?: string;
  website?: string;
  defaultTimezone?: string;
  platformBFeedPosts?: boolean;
}

/** How long before a waiting item's window its approvers are reminded, unless changed. */
export const DEFAULT_APPROVAL_LEAD_MINUTES = 120;

/** Creates a company; with an `actor`, `company.created` is recorded in its activity log. */
export async function createCompany(
  db: DbOrTx,
  clock: Clock,
  plans: PlanTable,
  input: CreateCompanyInput,
  actor?: Actor,
): Promise<CompanyInfo> {
  const name = checkName(input.name);
  checkPlan(plans, input.plan);
  if (input.defaultTimezone) checkTimezone(input.defaultTimezone);
  const now = clock.now();
  const at = now.toISOString();
  const row: CompaniesTable = {
    id: newId('cmp'),
    name,
    description: input.description ?? '',
    website: input.website ?? '',
    plan: input.plan,
    platformb_feed_posts: input.platformBFeedPosts ? 1 : 0,
    default_timezone: input.defaultTimezone ?? null,
    schedule_windows: null,
    created_at: at,
    updated_at: at,
    suspended_at: null,
    approval_lead_minutes: DEFAULT_APPROVAL_LEAD_MINUTES,
  };
  await repo.insertCompany(db, row);
  if (actor) {
    const detail = `${name}: plan ${row.plan}, platformB feed posts ${onOff(row.platformb_feed_posts === 1)}, timezone ${row.default_timezone ?? 'none'}`;
    await recordActivity(
      db,
      row.id,
      actor,
      { action: 'company.created', target: row.id, detail },
      now,
    );
  }
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

/** One field a change moved, from and to, as a person reads it. */
export interface CompanyChange {
  field: 'name' | 'plan' | 'platformBFeedPosts' | 'defaultTimezone' | 'description' | 'website';
  from: string | boolean | null;
  to: string | boolean | null;
}

function onOff(value: boolean): string {
  return value ? 'on' : 'off';
}

const FIELD_LABEL: Record<CompanyChange['field'], string> = {
  name: 'name',
  plan: 'plan',
  platformBFeedPosts: 'platformB feed posts',
  defaultTimezone: 'timezone',
  description: 'description',
  website: 'website',
};

/** "plan starter → growth; platformB feed posts off → on" */
export function describeChanges(changes: readonly CompanyChange[]): string {
  const shown = (v: string | boolean | null) =>
    typeof v === 'boolean' ? onOff(v) : v === null || v === '' ? 'none' : v;
  return changes.map((c) => `${FIELD_LABEL[c.field]} ${shown(c.from)} → ${shown(c.to)}`).join('; ');
}

/**
 * Applies the changes asked for and returns the company with what actually changed; with
 * an `actor` and any change, `company.updated` is recorded in its activity log.
 */
export async function changeCompany(
  db: DbOrTx,
  clock: Clock,
  plans: PlanTable,
  companyId: string,
  input: UpdateCompanyInput,
  actor?: Actor,
): Promise<{ company: CompanyInfo; changes: CompanyChange[] }> {
  const before = await repo.findCompany(db, companyId);
  if (!before) throw new CompanyError(`company ${companyId} does not exist`);
  const now = clock.now();
  const patch: Partial<CompaniesTable> = { updated_at: now.toISOString() };
  const changes: CompanyChange[] = [];
  const note = <F extends CompanyChange['field']>(
    field: F,
    from: CompanyChange['from'],
    to: CompanyChange['to'],
  ) => {
    if (from !== to) changes.push({ field, from, to });
  };
  if (input.plan !== undefined) {
    checkPlan(plans, input.plan);
    patch.plan = input.plan;
    note('plan', before.plan, input.plan);
  }
  if (input.platformBFeedPosts !== undefined) {
    patch.platformb_feed_posts = input.platformBFeedPosts ? 1 : 0;
    note('platformBFeedPosts', before.platformb_feed_posts === 1, input.platformBFeedPosts);
  }
  if (input.defaultTimezone !== undefined) {
    if (input.defaultTimezone !== null) checkTimezone(input.defaultTimezone);
    patch.default_timezone = input.defaultTimezone;
    note('defaultTimezone', before.default_timezone, input.defaultTimezone);
  }
  if (input.description !== undefined) {
    patch.description = input.description;
    note('description', before.description, input.description);
  }
  if (input.website !== undefined) {
    patch.website = input.website;
    note('website', before.website, input.website);
  }
  if (input.name !== undefined) {
    patch.name = checkName(input.name);
    note('name', before.name, patch.name);
  }
  if (!(await repo.updateCompany(db, companyId, patch))) {
    throw new CompanyError(`company ${companyId} does not exist`);
  }
  if (actor && changes.length > 0) {
    await recordActivity(
      db,
      companyId,
      actor,
      { action: 'company.updated', target: companyId, detail: describeChanges(changes) },
      now,
    );
  }
  return { company: info({ ...before, ...patch }), changes };
}

export async function updateCompany(
  db: DbOrTx,
  clock: Clock,
  plans: PlanTable,
  companyId: string,
  input: UpdateCompanyInput,
): Promise<CompanyInfo> {
  return (await changeCompany(db, clock, plans, companyId, input)).company;
}

/**
 * Suspends (`suspend` true) or resumes the company: while suspended, its API keys and its
 * users are refused; nothing is deleted, and resuming restores everything. `changed` is
 * false when it already was in that state (then nothing is recorded). With an `actor`, the
 * change is recorded in the company's activity log (`company.suspended`, `company.resumed`).
 */
export async function setCompanySuspended(
  db: DbOrTx,
  clock: Clock,
  companyId: string,
  suspend: boolean,
  actor?: Actor,
  reason?: string,
): Promise<{ company: CompanyInfo; changed: boolean }> {
  const row = await repo.lockCompany(db, companyId);
  if (!row) throw new CompanyError(`company ${companyId} does not exist`);
  if ((row.suspended_at !== null) === suspend) return { company: info(row), changed: false };
  const now = clock.now();
  const at = now.toISOString();
  const patch = { suspended_at: suspend ? at : null, updated_at: at };
  await repo.updateCompany(db, companyId, patch);
  if (actor) {
    await recordActivity(
      db,
      companyId,
      actor,
      {
        action: suspend ? 'company.suspended' : 'company.resumed',
        target: companyId,
        detail: reason?.trim() || null,
      },
      now,
    );
  }
  return { company: info({ ...row, ...patch }), changed: true };
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

/** The companies with these ids, by id (unknown ids are left out). */
export async function getCompanies(
  db: DbOrTx,
  companyIds: readonly string[],
): Promise<Map<string, CompanyInfo>> {
  const rows = await repo.findCompanies(db, [...new Set(companyIds)]);
  return new Map(rows.map((r) => [r.id, info(r)]));
}

export async function listCompanies(db: DbOrTx): Promise<CompanyInfo[]> {
  return (await repo.listCompanies(db)).map(info);
}

/**
 * A page of companies, newest first; `before` is the (createdAt, companyId) of the last one
 * seen, `nameContains` a part of the name to look for (any case).
 */
export async function pageCompanies(
  db: DbOrTx,
  opts: { before?: [string, string]; limit: number; nameContains?: string },
): Promise<CompanyInfo[]> {
  return (await repo.pageCompanies(db, opts)).map(info);
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

/** The lead times a company may choose for approval reminders, in minutes. */
export const APPROVAL_LEAD_CHOICES = [30, 60, 120, 180, 240, 360, 720, 1440] as const;

/** Sets how long before a waiting item's window its approvers are reminded. */
export async function setApprovalLead(
  db: DbOrTx,
  clock: Clock,
  companyId: string,
  minutes: number,
  actor: Actor,
): Promise<boolean> {
  if (!(APPROVAL_LEAD_CHOICES as readonly number[]).includes(minutes)) {
    throw new CompanyError(
      `approval reminder lead time must be one of ${APPROVAL_LEAD_CHOICES.join(', ')} minutes`,
    );
  }
  const row = await repo.findCompany(db, companyId);
  if (!row) throw new CompanyError(`company ${companyId} does not exist`);
  if (row.approval_lead_minutes === minutes) return false;
  const now = clock.now();
  await repo.updateCompany(db, companyId, {
    approval_lead_minutes: minutes,
    updated_at: now.toISOString(),
  });
  await recordActivity(
    db,
    companyId,
    actor,
    {
      action: 'company.approval_lead_changed',
      target: companyId,
      detail: `${row.approval_lead_minutes} → ${minutes} minutes`,
    },
    now,
  );
  return true;
}
