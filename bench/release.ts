// Release benchmark: one dispatcher pass (releaseDue) over N accounts that each
// have one queued, ready item whose window is due, at N = 1,000 and 10,000, on
// SQLite (a temporary DATA_DIR) and on PostgreSQL (a temporary database on the
// server at SLOTLINE_BENCH_PG_URL, else SLOTLINE_TEST_PG_URL, else the local
// one; skipped when unreachable). Each measurement runs on freshly seeded
// data, BENCH_ROUNDS times (default 3), and reports the median. The pass runs
// in this process, as the service's dispatch loop would.
//
// Target: one pass releases 10,000 accounts in under 2 s, on either database,
// with the cost per account flat from 1,000 to 10,000 (growth ~1.0).
import { openContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import type { Dialect } from '../src/db/types.ts';
import { releaseDue } from '../src/dispatch/dispatcher.ts';
import { FakeClock } from '../src/lib/clock.ts';
import { createCompany } from '../src/modules/companies/companies.service.ts';
import { DUE_AT, seedDueAccounts } from './due-accounts.ts';
import { freshStore, pgReachable, PG_ADMIN_URL } from './stores.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SIZES = [1000, 10_000] as const;
const TARGET_ACCOUNTS = 10_000;
const TARGET_MS = 2000;

interface Pass {
  accounts: number;
  ms: number;
  released: number;
  seedMs: number;
}

interface SizeResult {
  accounts: number;
  /** Median of the rounds. */
  totalMs: number;
  usPerAccount: number;
  rounds: Pass[];
}

interface DialectResult {
  dialect: Dialect;
  sizes: SizeResult[];
  /** µs per account at 10,000 over µs per account at 1,000. */
  growth: number;
  target: string;
  pass: boolean;
}

/** Seeds `n` due accounts into a fresh store and times one pass over them. */
async function onePass(dialect: Dialect, n: number): Promise<Pass> {
  const store = await freshStore(dialect, 'release');
  try {
    const clock = new FakeClock(DUE_AT);
    const opened = await openContext(loadConfig({ ...store.env, LOG_LEVEL: 'warn' }), { clock });
    const { ctx } = opened;
    try {
      const seedStart = performance.now();
      const company = await createCompany(ctx.db, clock, ctx.config.plans, {
        name: 'Bench',
        plan: 'scale',
      });
      await seedDueAccounts(ctx.db, company.companyId, n);
      const seedMs = performance.now() - seedStart;
      const t0 = performance.now();
      const r = await releaseDue(ctx, clock.now());
      const ms = performance.now() - t0;
      if (r.released !== n) throw new Error(`${dialect}: released ${r.released} of ${n} items`);
      return { accounts: n, ms: round(ms, 1), released: r.released, seedMs: Math.round(seedMs) };
    } finally {
      await opened.close();
    }
  } finally {
    await store.drop();
  }
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function middle(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
}

async function benchDialect(dialect: Dialect): Promise<DialectResult> {
  // An unreported pass first, so the first measured size does not pay for
  // compiling the code paths.
  await onePass(dialect, 200);
  const sizes: SizeResult[] = [];
  for (const n of SIZES) {
    const rounds: Pass[] = [];
    for (let i = 0; i < ROUNDS; i++) rounds.push(await onePass(dialect, n));
    const totalMs = middle(rounds.map((r) => r.ms));
    sizes.push({ accounts: n, totalMs, usPerAccount: round((totalMs * 1000) / n, 1), rounds });
  }
  const small = sizes[0] as SizeResult;
  const large = sizes[sizes.length - 1] as SizeResult;
  const growth = round(large.usPerAccount / small.usPerAccount, 2);
  const pass = large.accounts >= TARGET_ACCOUNTS && large.totalMs < TARGET_MS;
  const result: DialectResult = {
    dialect,
    sizes,
    growth,
    target: `< ${TARGET_MS} ms for ${TARGET_ACCOUNTS} accounts`,
    pass,
  };
  const name = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  console.log(
    `\nreleaseDue, one pass, every account due (one queued item each), ${name}; median of ${ROUNDS} rounds on fresh data`,
  );
  for (const s of sizes) {
    const spread = s.rounds.map((r) => r.ms);
    console.log(
      `  ${String(s.accounts).padStart(6)} accounts ${s.totalMs.toFixed(1).padStart(8)} ms   ${s.usPerAccount.toFixed(1).padStart(6)} µs/account   (rounds ${Math.min(...spread)}-${Math.max(...spread)} ms; seeded in ${middle(s.rounds.map((r) => r.seedMs))} ms)`,
    );
  }
  console.log(
    `  growth of the cost per account, ${large.accounts} vs ${small.accounts}: ${growth} (ideally ~1.0)`,
  );
  console.log(
    `  ${large.accounts} accounts in ${large.totalMs} ms (target ${result.target}) ${pass ? 'PASS' : 'FAIL'}`,
  );
  return result;
}

export async function benchRelease(): Promise<unknown> {
  const results: Record<string, unknown> = {};
  results.sqlite = await benchDialect('sqlite');
  if (await pgReachable()) {
    results.postgres = await benchDialect('postgres');
  } else {
    console.log(`\nreleaseDue on PostgreSQL: skipped, ${PG_ADMIN_URL} is not reachable`);
    results.postgres = `skipped: ${PG_ADMIN_URL} not reachable`;
  }
  return results;
}
