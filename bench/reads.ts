// GET /v2/accounts and GET /v2/content-tags on the embedded database against a
// bare Fastify route serving the same bytes, both started in this run.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { createCompany } from '../src/modules/companies/companies.service.ts';
import { createKey } from '../src/modules/keys/keys.service.ts';
import { SCOPES } from '../src/access.ts';
import { createAccount } from '../src/modules/accounts/accounts.service.ts';
import { createTag } from '../src/modules/tags/tags.service.ts';
import {
  compare,
  load,
  median,
  printComparison,
  startChild,
  stopChild,
  warm,
  type Comparison,
  type LoadResult,
} from './lib.ts';

const SERVICE_PORT = 18080;
const BARE_PORT = 18081;

export async function benchReads(): Promise<Comparison[]> {
  const dir = await mkdtemp(join(tmpdir(), 'slotline-bench-'));
  const env = { DATA_DIR: dir, PORT: String(SERVICE_PORT), LOG_LEVEL: 'warn' };
  const opened = await openContext(loadConfig(env));
  const { ctx } = opened;
  // The scale plan keeps the daily request cap out of the measurement.
  const company = await createCompany(ctx.db, ctx.clock, ctx.config.plans, {
    name: 'Bench',
    plan: 'scale',
  });
  const key = await createKey(ctx.db, ctx.clock, {
    companyId: company.companyId,
    scopes: [...SCOPES],
  });
  const principal = {
    keyId: key.keyId,
    companyId: company.companyId,
    scopes: new Set<string>(SCOPES),
    plan: 'scale',
  };
  for (let i = 0; i < 25; i++) {
    await createAccount(ctx, principal, {
      platform: i % 2 ? 'platformA' : 'platformB',
      username: `bench_${i}`,
      displayName: `Bench ${i}`,
      bio: 'Benchmark account',
      profilePictureUrl: 'https://example.com/p.png',
      warmup: { searchTerms: ['one', 'two'] },
    });
    await createTag(ctx, company.companyId, { name: `Tag ${i}`, color: 'blue' });
  }
  await opened.close();

  const headers = { authorization: `Bearer ${key.secret}` };
  const service = await startChild(
    'bin/slotline.js',
    ['serve'],
    { ...process.env, ...env },
    `http://127.0.0.1:${SERVICE_PORT}/v2/openapi.json`,
  );
  const results: Comparison[] = [];
  let bare: Awaited<ReturnType<typeof startChild>> | undefined;
  try {
    const bodies: Record<string, string> = {};
    for (const path of ['/v2/accounts', '/v2/content-tags']) {
      const res = await fetch(`http://127.0.0.1:${SERVICE_PORT}${path}`, { headers });
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      bodies[path] = await res.text();
    }
    const bodiesFile = join(dir, 'bodies.json');
    await writeFile(bodiesFile, JSON.stringify(bodies));
    bare = await startChild(
      'bench/bare-server.ts',
      [bodiesFile],
      { ...process.env, PORT: String(BARE_PORT) },
      `http://127.0.0.1:${BARE_PORT}/`,
    );
    for (const path of Object.keys(bodies)) {
      const serviceUrl = `http://127.0.0.1:${SERVICE_PORT}${path}`;
      const bareUrl = `http://127.0.0.1:${BARE_PORT}${path}`;
      await warm(serviceUrl, headers);
      await warm(bareUrl, {});
      // Alternate short rounds so drift in the machine's load hits both sides alike.
      const subjects: LoadResult[] = [];
      const baselines: LoadResult[] = [];
      for (let round = 0; round < 3; round++) {
        subjects.push(await load(`service GET ${path}`, serviceUrl, headers, { duration: 4 }));
        baselines.push(await load('bare Fastify, same bytes', bareUrl, {}, { duration: 4 }));
      }
      const c = compare(
        `GET ${path} (25 items, SQLite; median of 3 alternating rounds)`,
        median(subjects),
        median(baselines),
        0.4,
      );
      printComparison(c);
      results.push(c);
    }
  } finally {
    if (bare) await stopChild(bare);
    await stopChild(service);
    await rm(dir, { recursive: true, force: true });
  }
  return results;
}
