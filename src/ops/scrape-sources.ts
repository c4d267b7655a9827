// What the scrape-time gauges of PromMetrics read, over an opened context.
import type { OpenedContext } from '../bootstrap.ts';
import { itemCountsByStatus } from '../modules/items/index.ts';
import type { ScrapeSources } from './prom-metrics.ts';

export function scrapeSources(opened: OpenedContext): ScrapeSources {
  const { ctx } = opened;
  return {
    poolStats: opened.poolStats,
    itemCounts: () => itemCountsByStatus(ctx.db),
    backlog: () => ({
      thumbnails: ctx.thumbnails.queued + ctx.thumbnails.running,
      renders: ctx.renders.queued + ctx.renders.running,
    }),
  };
}
