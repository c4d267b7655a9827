// Plans: the quotas and daily caps a company works within (DECISIONS 7), below every
// module: the configuration reads the table, the usage module enforces it.
// The built-in table can be replaced with PLANS_FILE (JSON of the same shape).

export interface Plan {
  /** Shown as `billingType` in GET /v2/usage. */
  billingType: string;
  /** Publishing accounts a company may hold (account_limit_reached). */
  accountLimit: number;
  /** Ready video uploads a company may hold in total (quota_exceeded). */
  videoQuota: number;
  /** Post credits per calendar month, UTC; one credit per queue item (quota_exceeded). */
  postCredits: number;
  /** Daily caps per UTC day (rate_limited). */
  postsPerDay: number;
  uploadsPerDay: number;
  accountCreationsPerDay: number;
  apiRequestsPerDay: number;
}

export type PlanTable = Readonly<Record<string, Readonly<Plan>>>;

export const DEFAULT_PLANS: PlanTable = Object.freeze({
  starter: Object.freeze({
    billingType: 'subscription',
    accountLimit: 100,
    videoQuota: 10_000,
    postCredits: 30_000,
    postsPerDay: 1_000,
    uploadsPerDay: 2_000,
    accountCreationsPerDay: 50,
    apiRequestsPerDay: 100_000,
  }),
  growth: Object.freeze({
    billingType: 'subscription',
    accountLimit: 500,
    videoQuota: 100_000,
    postCredits: 150_000,
    postsPerDay: 5_000,
    uploadsPerDay: 10_000,
    accountCreationsPerDay: 200,
    apiRequestsPerDay: 500_000,
  }),
  scale: Object.freeze({
    billingType: 'contract',
    accountLimit: 20_000,
    videoQuota: 5_000_000,
    postCredits: 10_000_000,
    postsPerDay: 1_000_000,
    uploadsPerDay: 1_000_000,
    accountCreationsPerDay: 20_000,
    apiRequestsPerDay: 100_000_000,
  }),
});

const FIELDS: (keyof Plan)[] = [
  'accountLimit',
  'videoQuota',
  'postCredits',
  'postsPerDay',
  'uploadsPerDay',
  'accountCreationsPerDay',
  'apiRequestsPerDay',
];

/** Parses and checks a plan table; throws an Error naming the first bad field. */
export function parsePlanTable(text: string): PlanTable {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`plan table is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new Error('plan table must be an object of plan name -> plan');
  }
  const out: Record<string, Plan> = {};
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!/^[a-z0-9_-]{1,40}$/.test(name)) throw new Error(`plan name "${name}" is not allowed`);
    const v = value as Record<string, unknown>;
    const plan = {
      billingType: typeof v.billingType === 'string' ? v.billingType : 'subscription',
    };
    for (const f of FIELDS) {
      const n = v[f];
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
        throw new Error(`plan "${name}": ${f} must be a non-negative integer`);
      }
      (plan as Record<string, unknown>)[f] = n;
    }
    out[name] = Object.freeze(plan as Plan);
  }
  if (Object.keys(out).length === 0) throw new Error('plan table has no plans');
  return Object.freeze(out);
}
