// Outbox (dashboard page, admins only): the mail Slotline wrote to the company's people and
// the chat alerts it posted to the company's hooks (named by their label and masked URL),
// newest first: to whom, what, when, and whether it was delivered, is waiting for another
// try, or failed and why. Never a message's body, whose links are secrets.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { chatHookNames } from '../../modules/alerts/index.ts';
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
            {
              companyId: me.companyId,
              channels: ['email', 'chat'],
              ...(status ? { status } : {}),
            },
            { before, limit },
          ),
        );
        const hooks = await chatHookNames(
          ctx.db,
          me.companyId,
          list.rows.flatMap((m) => (m.channel === 'chat' ? [m.to] : [])),
        );
        return page(req, reply, 'outbox.eta', 'Outbox', {
          ...list,
          rows: list.rows.map((m) =>
            m.channel === 'chat'
              ? {
                  ...m,
                  to: hooks.get(m.to) ?? 'a chat hook since removed',
                  kindLabel: m.kind === 'chat_test' ? 'Chat test' : 'Chat alert',
                }
              : { ...m, kindLabel: mailKindLabel(m.kind) },
          ),
          mailOn: ctx.mailing !== null,
        });
      },
    );
  };
}
