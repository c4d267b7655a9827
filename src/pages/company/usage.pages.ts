// Usage (dashboard page): the company's plan, each quota and daily cap with how much of it
// is used, and when the counts start again (UTC).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { getCompany } from '../../modules/companies/index.ts';
import { planOf, readUsageDetail } from '../../modules/usage/index.ts';
import { page } from './layout.ts';
import { userOf } from './session.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

export function usagePages(ctx: AppContext) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/usage', async (req, reply) => {
      const user = userOf(req);
      const company = await getCompany(ctx.db, user.companyId);
      if (!company) throw new ActionRefused('not_found', 'Not found.');
      const plan = planOf(ctx.config.plans, ctx.config.defaultPlan, company.plan);
      // This process counts API requests in memory for a moment; settle them first so the
      // page agrees with GET /v2/usage.
      await ctx.meter.settle(user.companyId);
      const usage = await readUsageDetail(
        ctx.db,
        company.plan,
        plan,
        user.companyId,
        ctx.clock.now(),
      );
      return page(req, reply, 'usage.eta', 'Usage', {
        usage,
        meters: usage.meters.map((m, i) => ({
          ...m,
          id: `meter-${i}`,
          percent: m.limit > 0 ? Math.min(100, (m.used / m.limit) * 100) : 100,
        })),
      });
    });
  };
}
