// Outbox (dashboard page, admins only): the mail Slotline wrote to the company's people,
// the chat alerts it posted to the company's hooks (named by their label and masked URL)
// and the phone pushes of its tasks and reminders (named by the worker's name or the
// person's email and the device's push service), newest first: to whom, what, when, and
// whether it was delivered, is waiting for another try, or failed and why. Never a
// message's body, whose links are secrets. Pushes are left out of the default view (see
// kit/outbox-list.ts for why); every read is of this company's rows only.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { chatHookNames } from '../../modules/alerts/index.ts';
import { listMessages, mailKindLabel } from '../../modules/outbox/index.ts';
import { userEmails } from '../../modules/users/index.ts';
import { workerNames } from '../../modules/workers/index.ts';
import { OutboxQuery, pushOwners, pushRecipient, statusPage } from '../kit/outbox-list.ts';
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
        const list = await statusPage(
          `${BASE}/outbox`,
          req.query,
          (status, channels, before, limit) =>
            listMessages(
              ctx.db,
              {
                companyId: me.companyId,
                channels,
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
        const owners = pushOwners(list.rows);
        const names = {
          workers: await workerNames(ctx.db, owners.workers),
          users: await userEmails(ctx.db, me.companyId, owners.users),
        };
        return page(req, reply, 'outbox.eta', 'Outbox', {
          ...list,
          rows: list.rows.map((m) =>
            m.channel === 'chat'
              ? {
                  ...m,
                  to: hooks.get(m.to) ?? 'a chat hook since removed',
                  kindLabel: m.kind === 'chat_test' ? 'Chat test' : 'Chat alert',
                }
              : m.channel === 'push'
                ? {
                    ...m,
                    to: pushRecipient(m.push, names),
                    kindLabel: `Phone push, ${mailKindLabel(m.kind).toLowerCase()}`,
                  }
                : { ...m, kindLabel: mailKindLabel(m.kind) },
          ),
          mailOn: ctx.mailing !== null,
        });
      },
    );
  };
}
