// Outbox (dashboard page, admins only): the mail Slotline wrote to the company's people,
// newest first: to whom, what, when, and whether it was delivered, is waiting for another
// try, or failed and why. Never a message's body, whose links are secrets.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { listMessages, mailKindLabel } from '../../modules/outbox/index.ts';
import { OutboxQuery, statusPage } from '../kit/outbox-list.ts';
import { page } from './layout.ts';
import { BASE, userOf } from './session.ts';

export function outboxPages(ctx: AppContext) {
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/outbox',
      { config: { role: 'admin' as const }, schema: { querystring: OutboxQuery } },
      async (req, reply) => {
        const me = userOf(req);
        const list = await statusPage(`${BASE}/outbox`, req.query, (status, before, limit) =>
          listMessages(
            ctx.db,
            { companyId: me.companyId, ...(status ? { status } : {}) },
            { before, limit },
          ),
        );
        return page(req, reply, 'outbox.eta', 'Outbox', {
          ...list,
          rows: list.rows.map((m) => ({ ...m, kindLabel: mailKindLabel(m.kind) })),
          mailOn: ctx.mailing !== null,
        });
      },
    );
  };
}
