// The outbox (console): every message Slotline wrote, newest first, with the company it
// concerns ("Operator side" for the operators' own): to whom, what, when, and whether it
// was delivered, is waiting for another try, or failed and why. Never a message's body.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { getCompanies } from '../../modules/companies/index.ts';
import { listMessages, mailKindLabel } from '../../modules/outbox/index.ts';
import { OutboxQuery, statusPage } from '../kit/outbox-list.ts';
import { consolePage } from './layout.ts';
import { OPERATOR_BASE } from './session.ts';

export function outboxPages(ctx: AppContext) {
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/outbox', { schema: { querystring: OutboxQuery } }, async (req, reply) => {
      const list = await statusPage(`${OPERATOR_BASE}/outbox`, req.query, (status, before, limit) =>
        listMessages(ctx.db, status ? { status } : {}, { before, limit }),
      );
      const ids = [...new Set(list.rows.flatMap((m) => (m.companyId ? [m.companyId] : [])))];
      const companies = ids.length ? await getCompanies(ctx.db, ids) : new Map();
      const names = new Map([...companies.values()].map((c) => [c.companyId, c.name]));
      return consolePage(req, reply, 'outbox.eta', 'Outbox', {
        ...list,
        rows: list.rows.map((m) => ({
          ...m,
          kindLabel: mailKindLabel(m.kind),
          companyName: m.companyId ? (names.get(m.companyId) ?? null) : null,
        })),
        mailOn: ctx.mailing !== null,
      });
    });
  };
}
