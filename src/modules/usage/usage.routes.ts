import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth.ts';
import { AUTH_ERRORS, errorResponses } from '../../schemas/common.ts';
import { planOf, readUsage } from './usage.service.ts';

const UsageSchema = Type.Object(
  {
    plan: Type.String(),
    billingType: Type.String(),
    videoQuota: Type.Number({ description: 'Ready videos the plan allows in total' }),
    videoCount: Type.Number({ description: 'Ready videos uploaded so far' }),
    postCredits: Type.Object(
      {
        limit: Type.Number({ description: 'Credits per UTC calendar month' }),
        used: Type.Number({ description: 'Credits used this month; one per queue item' }),
      },
      { additionalProperties: false },
    ),
    postsPerDay: Type.Number({ description: 'Daily cap on queue items created, per UTC day' }),
    apiRequestsToday: Type.Number(),
    postsCreatedToday: Type.Number({
      description: 'Queue items created today (UTC), one per account',
    }),
  },
  { additionalProperties: false },
);

export function usageRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/usage',
      {
        // Readable even when the daily request cap is reached, so callers can see why.
        config: { scopes: ['usage:read'], countRequest: false },
        schema: {
          operationId: 'getUsage',
          tags: ['usage'],
          summary: 'Plan limits and today’s usage',
          description: 'Not counted against the daily API request cap.',
          response: {
            200: UsageSchema,
            ...errorResponses(AUTH_ERRORS.filter((c) => c !== 'rate_limited')),
          },
        },
      },
      async (req) => {
        const p = principalOf(req);
        const plan = planOf(ctx.config.plans, ctx.config.defaultPlan, p.plan);
        await ctx.meter.settle(p.companyId);
        return readUsage(ctx.db, p.plan, plan, p.companyId, ctx.clock.now());
      },
    );
  };
}
