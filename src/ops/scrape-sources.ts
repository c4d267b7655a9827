// What the scrape-time gauges of PromMetrics read, over an opened context.
import type { OpenedContext } from '../bootstrap.ts';
import {
  DELIVERY_FIGURE_PERIODS,
  deliveryFigureTotals,
  itemCountsByStatus,
} from '../modules/items/index.ts';
import { mediaBacklog } from '../modules/media-jobs/index.ts';
import type { ScrapeSources } from './prom-metrics.ts';

export function scrapeSources(opened: OpenedContext): ScrapeSources {
  const { ctx } = opened;
  return {
    poolStats: opened.poolStats,
    itemCounts: () => itemCountsByStatus(ctx.db),
    mediaBacklog: () => mediaBacklog(ctx.db, ctx.clock.now()),
    delivery: async () => {
      const now = ctx.clock.now();
      const periods = await Promise.all(
        DELIVERY_FIGURE_PERIODS.map(async (days) => {
          const figures = await deliveryFigureTotals(ctx.db, 'company', now, days);
          return [`${days}d`, figures] as const;
        }),
      );
      return Object.fromEntries(periods);
    },
  };
}
