// The operator log: every operator action (who, what, when), newest first, paged; the
// entries of one company with `?company=`.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { getCompany } from '../../modules/companies/index.ts';
import { listOperatorLog } from '../../modules/operators/index.ts';
import { consolePage } from './layout.ts';
import { describeEntry } from './log-text.ts';
import { OPERATOR_BASE } from './session.ts';

const PAGE_SIZE = 50;

// `before` is `createdAt|id` of the last entry shown: a position, not a secret; without
// both parts the page starts at the newest entry.
const LogQuery = Type.Object({
  before: Type.Optional(Type.String()),
  company: Type.Optional(Type.String({ maxLength: 200 })),
});

export function logPages(ctx: AppContext) {
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/log', { schema: { querystring: LogQuery } }, async (req, reply) => {
      const parts = req.query.before?.split('|') ?? [];
      const before =
        parts.length === 2 && parts[0] && parts[1]
          ? ([parts[0], parts[1]] as [string, string])
          : undefined;
      const companyId = req.query.company;
      const company = companyId ? await getCompany(ctx.db, companyId) : undefined;
      const entries = await listOperatorLog(ctx.db, {
        ...(before ? { before } : {}),
        ...(companyId ? { companyId } : {}),
        limit: PAGE_SIZE + 1,
      });
      const shown = entries.slice(0, PAGE_SIZE);
      const last = shown[shown.length - 1];
      const filter = companyId ? `company=${encodeURIComponent(companyId)}&` : '';
      return consolePage(req, reply, 'log.eta', 'Operator log', {
        entries: shown.map((e) => ({ ...e, text: describeEntry(e) })),
        company: company ?? null,
        filtered: companyId !== undefined,
        paged: before !== undefined,
        first: `${OPERATOR_BASE}/log${companyId ? `?company=${encodeURIComponent(companyId)}` : ''}`,
        next:
          entries.length > PAGE_SIZE && last
            ? `${OPERATOR_BASE}/log?${filter}before=${encodeURIComponent(`${last.createdAt}|${last.id}`)}`
            : null,
      });
    });
  };
}
