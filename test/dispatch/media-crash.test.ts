// Media work survives a crash: a service process is killed with SIGKILL a moment after it
// acknowledged eight carousels (ten slides, six text elements each), and started again on
// the same data; every post leaves `processing` with its ten rendered slides. On
// PostgreSQL the same with two processes on one database, the one that took the posts
// killed and the other left to finish them. The time to the last render is printed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../helpers/app.ts';
import { makeAccounts, readyUpload } from '../helpers/posts.ts';
import { startReplicas, type Replica } from '../helpers/replicas.ts';

const CAROUSELS = 8;
const RENDERED_WITHIN_MS = 240_000;
/** Short leases, so a dead process's claim runs out within the test. */
const LEASE_MS = 3_000;

interface Service {
  base: string;
  child: ChildProcess;
}

async function startService(env: NodeJS.ProcessEnv): Promise<Service> {
  const { replicas } = await startReplicas(1, env);
  const replica = replicas[0] as Replica;
  return { base: replica.url, child: replica.child };
}

async function kill(service: Service): Promise<void> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => service.child.once('exit', () => resolve()));
  service.child.kill('SIGKILL');
  await exited;
}

function carousel(image: string, accountIds: string[], i: number) {
  return {
    media: [image],
    accountIds,
    caption: `carousel ${i}`,
    slides: Array.from({ length: 10 }, (_, n) => ({
      image,
      textElements: Array.from({ length: 6 }, (_, e) => ({
        content: `Slide ${n + 1}, line ${e + 1}: a few words to wrap`,
        style: { positionY: 10 + e * 15, textMode: 'background', fontSize: 20 },
      })),
    })),
  };
}

/** Creates the carousels through `base`, answering their ids once all were acknowledged. */
async function createCarousels(base: string, key: string, image: string, accounts: string[]) {
  const ids = await Promise.all(
    Array.from({ length: CAROUSELS }, async (_, i) => {
      const res = await fetch(`${base}/v2/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(carousel(image, accounts, i)),
      });
      const body = (await res.json()) as { postId: string; status: string };
      assert.equal(res.status, 201, JSON.stringify(body));
      assert.equal(body.status, 'processing');
      return body.postId;
    }),
  );
  return ids;
}

async function processing(t: TestApp, ids: string[]): Promise<number> {
  const rows = await t.ctx.db
    .selectFrom('posts')
    .select('id')
    .where('id', 'in', ids)
    .where('media_state', '=', 'processing')
    .execute();
  return rows.length;
}

/** Waits until no post of `ids` is processing; answers how long it took. */
async function untilRendered(base: string, key: string, ids: string[]): Promise<number> {
  const started = Date.now();
  const left = new Set(ids);
  while (left.size > 0) {
    assert.ok(
      Date.now() - started < RENDERED_WITHIN_MS,
      `${left.size} posts still processing after ${RENDERED_WITHIN_MS} ms`,
    );
    for (const id of [...left]) {
      const res = await fetch(`${base}/v2/posts/${id}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const body = (await res.json()) as { status: string; media: { count: number } };
      if (body.status === 'processing') continue;
      assert.equal(body.status, 'pending_approval', `post ${id} rendered, not failed`);
      assert.equal(body.media.count, 10);
      left.delete(id);
    }
    if (left.size > 0) await new Promise((r) => setTimeout(r, 250));
  }
  return Date.now() - started;
}

describeEachDialect('media work across a crash', (get, dialect) => {
  async function prepare(t: TestApp) {
    const co = await seedCompany(t, { plan: 'scale' });
    const call = client(t, co.key);
    const accounts = await makeAccounts(call, 2);
    const image = await readyUpload(t, call, 'image.jpg');
    await t.media.idle();
    // From here the services do the media work, not this process.
    const release = t.media.hold();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: t.config.dataDir,
      DATABASE_URL: t.config.databaseUrl ?? '',
      SLOTLINE_SECRET: t.config.secret ?? '',
      DISPATCH_INTERVAL_MS: '0',
      WEBHOOK_POLL_MS: '0',
      SIMULATOR: 'off',
      LOG_LEVEL: 'fatal',
      MEDIA_JOB_LEASE_MS: String(LEASE_MS),
    };
    return { key: co.key, accounts, image, env, release };
  }

  test(
    'SIGKILL mid-render, restart: every carousel leaves processing',
    { timeout: 400_000 },
    async (ctx) => {
      const t = get();
      const p = await prepare(t);
      let service: Service | null = await startService(p.env);
      try {
        const ids = await createCarousels(service.base, p.key, p.image, p.accounts);
        await kill(service);
        service = null;
        const left = await processing(t, ids);
        assert.ok(left > 0, 'the kill came while carousels were still to render');
        service = await startService(p.env);
        const ms = await untilRendered(service.base, p.key, ids);
        ctx.diagnostic(
          `${dialect}: ${left} of ${CAROUSELS} carousels unrendered at the kill; ` +
            `all rendered ${ms} ms after the restart`,
        );
      } finally {
        if (service) await kill(service);
        p.release();
      }
    },
  );

  if (dialect === 'postgres') {
    test(
      'two processes on one database: the other finishes what the killed one took',
      { timeout: 400_000 },
      async (ctx) => {
        const t = get();
        const p = await prepare(t);
        const services: Service[] = [];
        try {
          services.push(await startService(p.env), await startService(p.env));
          const [first, second] = services as [Service, Service];
          const ids = await createCarousels(first.base, p.key, p.image, p.accounts);
          await kill(first);
          const ms = await untilRendered(second.base, p.key, ids);
          ctx.diagnostic(`postgres, two processes: all rendered ${ms} ms after the kill`);
        } finally {
          for (const s of services) await kill(s);
          p.release();
        }
      },
    );
  }
});
