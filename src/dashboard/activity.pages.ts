// The activity log (dashboard page 9): who approved, rejected, created or revoked keys,
// deleted tags, changed schedules, and when; newest first.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { listActivity } from '../modules/activity/index.ts';
import { page } from './layout.ts';
import { BASE, userOf } from './session.ts';

const PAGE_SIZE = 100;

// `before` is `at|id` of the last entry shown: a position, not a secret; without both
// parts the page starts at the newest entry.
const ActivityQuery = Type.Object({ before: Type.Optional(Type.String()) });

export function activityPages(ctx: AppContext) {
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/activity', { schema: { querystring: ActivityQuery } }, async (req, reply) => {
      const user = userOf(req);
      const parts = req.query.before?.split('|') ?? [];
      const before =
        parts.length === 2 && parts[0] && parts[1]
          ? ([parts[0], parts[1]] as [string, string])
          : undefined;
      const entries = await listActivity(ctx.db, user.companyId, {
        ...(before ? { before } : {}),
        limit: PAGE_SIZE + 1,
      });
      const shown = entries.slice(0, PAGE_SIZE);
      const last = shown[shown.length - 1];
      return page(req, reply, 'activity.eta', 'Activity', {
        entries: shown,
        next:
          entries.length > PAGE_SIZE && last
            ? `${BASE}/activity?before=${encodeURIComponent(`${last.at}|${last.id}`)}`
            : null,
      });
    });
  };
}
