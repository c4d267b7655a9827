// The outbox (console): every mail, chat alert and phone push Slotline wrote, newest first,
// with the company it concerns ("Operator side" for the operators' own): to whom (a chat
// hook by its label and masked URL, a push by the worker's name or the person's email and
// the device's push service), what, when, and whether it was delivered, is waiting for
// another try, or failed and why. Never a message's body. Pushes are left out of the
// default view (see kit/outbox-list.ts for why).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { getCompanies } from '../../modules/companies/index.ts';
import { chatHookNames } from '../../modules/alerts/index.ts';
import { listMessages, mailKindLabel } from '../../modules/outbox/index.ts';
import { userEmails } from '../../modules/users/index.ts';
import { workerNames } from '../../modules/workers/index.ts';
import { OutboxQuery, pushOwners, pushRecipient, statusPage } from '../kit/outbox-list.ts';
import { consolePage } from './layout.ts';
import { OPERATOR_BASE } from './session.ts';

export function outboxPages(ctx: AppContext) {
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/outbox', { schema: { querystring: OutboxQuery } }, async (req, reply) => {
      const list = await statusPage(
        `${OPERATOR_BASE}/outbox`,
        req.query,
        (status, channels, before, limit) =>
          listMessages(ctx.db, { channels, ...(status ? { status } : {}) }, { before, limit }),
      );
      const ids = [...new Set(list.rows.flatMap((m) => (m.companyId ? [m.companyId] : [])))];
      const companies = ids.length ? await getCompanies(ctx.db, ids) : new Map();
      const names = new Map([...companies.values()].map((c) => [c.companyId, c.name]));
      // Hooks are named side by side: each company's (and the operator side's) own.
      const chats = list.rows.filter((m) => m.channel === 'chat');
      const hooks = new Map<string, string>();
      for (const side of new Set(chats.map((m) => m.companyId))) {
        const ids = chats.filter((m) => m.companyId === side).map((m) => m.to);
        for (const [id, name] of await chatHookNames(ctx.db, side, ids)) hooks.set(id, name);
      }
      const owners = pushOwners(list.rows);
      const people = {
        workers: await workerNames(ctx.db, owners.workers),
        users: await userEmails(ctx.db, undefined, owners.users),
      };
      return consolePage(req, reply, 'outbox.eta', 'Outbox', {
        ...list,
        rows: list.rows.map((m) => ({
          ...m,
          ...(m.channel === 'chat'
            ? {
                to: hooks.get(m.to) ?? 'a chat hook since removed',
                kindLabel: m.kind === 'chat_test' ? 'Chat test' : 'Chat alert',
              }
            : m.channel === 'push'
              ? {
                  to: pushRecipient(m.push, people),
                  kindLabel: `Phone push, ${mailKindLabel(m.kind).toLowerCase()}`,
                }
              : { kindLabel: mailKindLabel(m.kind) }),
          companyName: m.companyId ? (names.get(m.companyId) ?? null) : null,
        })),
        mailOn: ctx.mailing !== null,
      });
    });
  };
}
