// A day of the demo company, for pages with something to show: `seed demo`, its accounts set
// up, all but one post approved, a webhook endpoint, and ten hours of releases posted by the
// simulated worker. The screenshots and the accessibility sweep of the pages start from it.
import type { AppContext } from '../../src/context.ts';
import { seedDemo, type SeedResult } from '../../src/cli/seed.ts';
import { dispatchPass } from '../../src/dispatch/loop.ts';
import { reportWorkerStatus } from '../../src/modules/accounts/index.ts';
import { approve } from '../../src/modules/items/index.ts';
import { createWebhook } from '../../src/modules/webhooks/index.ts';
import { simulatePass } from '../../src/simulator/simulator.ts';

export interface DemoDay {
  demo: SeedResult;
  webhookId: string;
  /** A post of the demo waiting for approval. */
  waitingPostId: string | null;
  /** A post delivered (posted) during the day, with its delivery record. */
  deliveredPostId: string | null;
}

export async function demoDay(ctx: AppContext): Promise<DemoDay> {
  const demo = await seedDemo(ctx);
  for (const accountId of demo.accountIds) {
    await reportWorkerStatus(ctx, demo.companyId, accountId, 'active', undefined);
  }
  const waiting = demo.posts.filter((p) => p.status === 'pending_approval');
  for (const post of waiting.slice(1)) await approve(ctx, { postId: post.postId });
  const hook = await createWebhook(ctx, demo.companyId, {
    url: 'https://hooks.example.com/slotline',
    events: ['post.item.posted', 'post.item.failed', 'account.status_changed'],
    description: 'Order system',
  });
  const start = ctx.clock.now().getTime();
  for (let m = 0; m <= 600; m += 5) {
    await dispatchPass(ctx, new Date(start + m * 60_000));
    await simulatePass(ctx, new Date(start + m * 60_000 + 60_000));
  }
  const delivered = await ctx.db
    .selectFrom('queue_items')
    .select('post_id')
    .where('company_id', '=', demo.companyId)
    .where('status', '=', 'posted')
    .executeTakeFirst();
  return {
    demo,
    webhookId: hook.webhookId,
    waitingPostId: waiting[0]?.postId ?? null,
    deliveredPostId: delivered?.post_id ?? null,
  };
}
