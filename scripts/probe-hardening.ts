// Hostile-input and race probe against two real service processes on one fresh PostgreSQL
// database (loopback only), printing what each probe counted:
//
//   npm run build && node --import tsx scripts/probe-hardening.ts [--keys N] [--only words]
//
// - NUL characters in ids, query values and bodies: answers by status (a 5xx is a defect);
// - malformed percent-encoding: answers outside the error envelope (a defect);
// - sign-in bursts: 30 wrong passwords at once for one account from 30 loopback addresses
//   (limit 5 per account), and 32 at once from one address (limit 20): how many were
//   checked, and whether the right password sent among 31 wrong ones got in;
// - Idempotency-Key races: every new key sent to both processes at once, 32 keys in flight
//   per process: 5xx answers, and keys that did not get exactly one 201 and one 200.
// Each section is a file under scripts/probe/ (listed in sections.ts); `--only <words>`
// runs the sections whose names contain them. Exits 1 when any probe found a defect.
import { parseArgs } from 'node:util';
import { openContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createCompany } from '../src/modules/companies/companies.service.ts';
import { createKey } from '../src/modules/keys/keys.service.ts';
import { createUser } from '../src/modules/users/users.service.ts';
import { DEFAULT_PLANS } from '../src/plans.ts';
import { SCOPES } from '../src/access.ts';
import { createPgDatabase } from '../test/helpers/databases.ts';
import { api, startReplicas, type HttpAnswer } from '../test/helpers/replicas.ts';
import { probeOptions } from './probe/basics.ts';
import type { ProbeRun } from './probe/section.ts';
import { sections } from './probe/sections.ts';

const { values } = parseArgs({
  options: { keys: { type: 'string', default: '4000' }, only: { type: 'string' } },
});
probeOptions.keys = Number(values.keys);
const only = values.only?.toLowerCase();
const defects: string[] = [];

function envelopeOk(res: HttpAnswer): boolean {
  const e = (res.body as { error?: Record<string, unknown> } | null)?.error;
  return (
    !!e &&
    typeof e.code === 'string' &&
    typeof e.message === 'string' &&
    typeof e.hint === 'string' &&
    e.requestId === res.headers.get('x-request-id')
  );
}

const db = await createPgDatabase();
const env = { DATABASE_URL: db.url, LOG_LEVEL: 'error', PUBLIC_URL: 'http://127.0.0.1:1' };
const opened = await openContext(loadConfig({ ...process.env, ...env, DATA_DIR: '/tmp/probe' }), {
  clock: systemClock,
});
let running: Awaited<ReturnType<typeof startReplicas>> | null = null;
try {
  const company = await createCompany(opened.ctx.db, systemClock, DEFAULT_PLANS, {
    name: 'Probe Co',
    plan: 'scale',
  });
  const key = await createKey(opened.ctx.db, systemClock, {
    companyId: company.companyId,
    scopes: [...SCOPES],
  });
  const users = [];
  for (let i = 0; i < 33; i++) {
    users.push(
      await createUser(opened.ctx.db, systemClock, {
        companyId: company.companyId,
        email: `probe-${i}@example.com`,
        role: 'viewer',
      }).then(({ password }) => ({ email: `probe-${i}@example.com`, password })),
    );
  }
  await opened.close();
  // One media store for both, as replicas share one in production: either may do the media
  // work of an upload or post the other took.
  running = await startReplicas(2, env, () => ({ DATA_DIR: '/tmp/probe-0' }));
  const bases = running.replicas.map((r) => r.url);
  const calls = bases.map((b) => api(b, key.secret));
  const probe: ProbeRun = {
    bases,
    calls,
    keySecret: key.secret,
    companyId: company.companyId,
    databaseUrl: db.url,
    env,
    users,
    defect: (text) => defects.push(text),
    envelopeOk,
  };
  for (const section of sections) {
    if (only && !section.name.toLowerCase().includes(only)) continue;
    await section.run(probe);
  }
} finally {
  await running?.stop();
  await db.drop();
}
if (defects.length > 0) {
  console.log(`\n${defects.length} defects:\n${defects.slice(0, 20).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log('\nno defects found');
}
