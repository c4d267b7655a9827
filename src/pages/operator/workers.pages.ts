// Workers in the operator console: the list (timezone, accounts, open tasks, last heartbeat,
// delivery figures over 7 days) and creating one, which shows its API token and a phone
// sign-in link with its QR code, once. A worker's page renames it or moves it to another
// timezone (its accounts' windows follow), makes another phone link, issues a new token,
// revokes it, and hands a company's accounts to it or takes accounts from it, in bulk.
// The operators module does each action and records it.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { ActionRefused } from '../../lib/action-refused.ts';
import { setScopedFlash, takeScopedFlash } from '../kit/flash.ts';
import { valuesOf } from '../kit/forms.ts';
import { redirect } from '../kit/session.ts';
import { listCompanies } from '../../modules/companies/index.ts';
import {
  operatorAssignAccounts,
  operatorCreateWorker,
  operatorRevokeWorker,
  operatorRotateWorkerToken,
  operatorUnassignAccounts,
  operatorUpdateWorker,
  operatorWorkerLink,
  type WorkerLink,
} from '../../modules/operators/index.ts';
import { assignableAccounts, workerDetail, workerOverview } from './workers-board.ts';
import { WORKER_LINK_MS, type WorkerInfo } from '../../modules/workers/index.ts';
import { TIMEZONES, pageErrorOf } from './fields.ts';
import { consolePage } from './layout.ts';
import { isLoopbackUrl } from './public-url.ts';
import { qrSvg } from './qr.ts';
import { OPERATOR_BASE, OPERATOR_FLASH, actorOf, sessionOf } from './session.ts';

import {
  AccountsForm,
  WorkerForm,
  WorkerParams,
  WorkerQuery,
  checkWorkerForm,
  fieldsOf,
  plural,
  type FieldErrors,
  type Problems,
  type WorkerFields,
  type WorkerQueryIn,
} from './worker-form.ts';

export function workerPages(ctx: AppContext) {
  const workerPath = (workerId: string, query = '') =>
    `${OPERATOR_BASE}/workers/${encodeURIComponent(workerId)}${query}`;

  function listPage(
    req: FastifyRequest,
    reply: FastifyReply,
    rows: Awaited<ReturnType<typeof workerOverview>>,
    form: WorkerFields,
    errors: FieldErrors,
  ) {
    return consolePage(req, reply, 'workers.eta', 'Workers', {
      rows,
      form,
      errors,
      timezones: TIMEZONES,
      now: ctx.clock.now().getTime(),
      done: takeScopedFlash(ctx, req, reply, OPERATOR_FLASH),
    });
  }

  async function detailPage(
    req: FastifyRequest,
    reply: FastifyReply,
    workerId: string,
    query: WorkerQueryIn,
    problems: Problems = {},
  ) {
    let detail;
    try {
      detail = await workerDetail(ctx.db, ctx.clock, workerId);
    } catch (err) {
      throw pageErrorOf(err);
    }
    const companies = await listCompanies(ctx.db);
    companies.sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
    const chosen = query.company ? await assignableAccounts(ctx.db, query.company) : undefined;
    if (query.company && !chosen)
      throw new ActionRefused('not_found', 'There is no company with this id.');
    const w = detail.worker;
    return consolePage(req, reply, 'worker.eta', w.name, {
      ...detail,
      settings: problems.settings ?? { form: { name: w.name, timezone: w.timezone }, errors: {} },
      assignError: problems.assign ?? null,
      unassignError: problems.unassign ?? null,
      timezones: TIMEZONES,
      companies,
      chosen: chosen
        ? {
            company: chosen.company,
            accounts: chosen.accounts.filter((a) => a.workerId !== workerId),
            operated: chosen.accounts.filter((a) => a.workerId === workerId).length,
          }
        : null,
      selectAll: query.select ?? null,
      now: ctx.clock.now().getTime(),
      done: takeScopedFlash(ctx, req, reply, OPERATOR_FLASH),
    });
  }

  /** The page that shows a worker's secrets once: its token and/or a phone link. */
  async function issuedPage(
    req: FastifyRequest,
    reply: FastifyReply,
    title: string,
    data: { worker: WorkerInfo; token?: string; link?: WorkerLink; created?: boolean },
  ) {
    return consolePage(req, reply, 'worker-issued.eta', title, {
      worker: data.worker,
      token: data.token ?? null,
      link: data.link ?? null,
      created: data.created ?? false,
      qr: data.link
        ? await qrSvg(data.link.url, `QR code of the phone sign-in link for ${data.worker.name}`)
        : null,
      hours: WORKER_LINK_MS / 3_600_000,
      loopback: data.link && isLoopbackUrl(ctx.config.publicUrl) ? ctx.config.publicUrl : null,
    });
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/workers', async (req, reply) =>
      listPage(req, reply, await workerOverview(ctx.db, ctx.clock), { name: '', timezone: '' }, {}),
    );

    app.post('/workers', { schema: { body: WorkerForm } }, async (req, reply) => {
      const form = fieldsOf(req.body);
      const errors = checkWorkerForm(form);
      if (Object.keys(errors).length === 0) {
        try {
          const { worker, link } = await operatorCreateWorker(
            ctx.db,
            ctx.clock,
            actorOf(sessionOf(req)),
            form,
            ctx.config.publicUrl,
          );
          // The token and the link exist only in this response (both are stored as
          // digests), so this page is the answer to the POST rather than a redirect.
          return await issuedPage(req, reply, `Worker ${worker.name} created`, {
            worker,
            token: worker.token,
            link,
            created: true,
          });
        } catch (err) {
          throw pageErrorOf(err);
        }
      }
      reply.code(400);
      return listPage(req, reply, await workerOverview(ctx.db, ctx.clock), form, errors);
    });

    app.get(
      '/workers/:workerId',
      { schema: { params: WorkerParams, querystring: WorkerQuery } },
      async (req, reply) => detailPage(req, reply, req.params.workerId, req.query),
    );

    app.post(
      '/workers/:workerId/settings',
      { schema: { params: WorkerParams, body: WorkerForm } },
      async (req, reply) => {
        const { workerId } = req.params;
        const form = fieldsOf(req.body);
        const errors = checkWorkerForm(form);
        if (Object.keys(errors).length > 0) {
          reply.code(400);
          return detailPage(req, reply, workerId, {}, { settings: { form, errors } });
        }
        let result;
        try {
          result = await operatorUpdateWorker(
            ctx.db,
            ctx.clock,
            actorOf(sessionOf(req)),
            workerId,
            form,
          );
        } catch (err) {
          throw pageErrorOf(err);
        }
        const { worker, changes } = result;
        const said = changes.map((c) =>
          c.field === 'name'
            ? `renamed from “${c.from}”`
            : `moved from ${c.from} to ${c.to}, and ${plural(worker.accounts, 'account')} with it: their posting windows follow`,
        );
        setScopedFlash(
          ctx,
          req,
          reply,
          said.length > 0 ? `${worker.name} ${said.join('; ')}.` : 'Nothing changed.',
          OPERATOR_FLASH,
        );
        return redirect(req, reply, workerPath(workerId));
      },
    );

    app.post(
      '/workers/:workerId/link',
      { schema: { params: WorkerParams } },
      async (req, reply) => {
        try {
          const { worker, link } = await operatorWorkerLink(
            ctx.db,
            ctx.clock,
            actorOf(sessionOf(req)),
            req.params.workerId,
            ctx.config.publicUrl,
          );
          return await issuedPage(req, reply, `Phone sign-in link for ${worker.name}`, {
            worker,
            link,
          });
        } catch (err) {
          throw pageErrorOf(err);
        }
      },
    );

    for (const action of ['rotate', 'revoke'] as const) {
      app.get(
        `/workers/:workerId/${action}`,
        { schema: { params: WorkerParams } },
        async (req, reply) => {
          const detail = await workerDetail(ctx.db, ctx.clock, req.params.workerId).catch(
            (err: unknown) => {
              throw pageErrorOf(err);
            },
          );
          const w = detail.worker;
          return consolePage(
            req,
            reply,
            'worker-confirm.eta',
            action === 'rotate' ? `New token for ${w.name}?` : `Revoke ${w.name}?`,
            { worker: w, action, openTasks: detail.openTasks },
          );
        },
      );
    }

    app.post(
      '/workers/:workerId/rotate',
      { schema: { params: WorkerParams } },
      async (req, reply) => {
        try {
          const { worker, reactivated } = await operatorRotateWorkerToken(
            ctx.db,
            ctx.clock,
            actorOf(sessionOf(req)),
            req.params.workerId,
          );
          return await issuedPage(
            req,
            reply,
            reactivated ? `${worker.name} is active again` : `New token for ${worker.name}`,
            { worker, token: worker.token },
          );
        } catch (err) {
          throw pageErrorOf(err);
        }
      },
    );

    app.post(
      '/workers/:workerId/revoke',
      { schema: { params: WorkerParams } },
      async (req, reply) => {
        let result;
        try {
          result = await operatorRevokeWorker(
            ctx.db,
            ctx.clock,
            actorOf(sessionOf(req)),
            req.params.workerId,
          );
        } catch (err) {
          throw pageErrorOf(err);
        }
        const { worker, changed } = result;
        setScopedFlash(
          ctx,
          req,
          reply,
          changed
            ? `${worker.name} is revoked: its token, phone sessions and links no longer work. Its ${plural(worker.accounts, 'account stays', 'accounts stay')} assigned until you move them.`
            : `${worker.name} was revoked already.`,
          OPERATOR_FLASH,
        );
        return redirect(req, reply, workerPath(worker.workerId));
      },
    );

    app.post(
      '/workers/:workerId/assign',
      { schema: { params: WorkerParams, body: AccountsForm } },
      async (req, reply) => {
        const { workerId } = req.params;
        const company = req.body.company ?? '';
        const back = company ? `?company=${encodeURIComponent(company)}` : '';
        const chosen = valuesOf(req.body.account);
        try {
          const { worker, moved } = await operatorAssignAccounts(
            ctx.db,
            ctx.clock,
            actorOf(sessionOf(req)),
            workerId,
            chosen,
          );
          setScopedFlash(
            ctx,
            req,
            reply,
            moved > 0
              ? `${plural(moved, 'account')} given to ${worker.name}; ${moved === 1 ? 'it takes' : 'they take'} its timezone, ${worker.timezone}.`
              : `${worker.name} operated ${chosen.length === 1 ? 'that account' : 'those accounts'} already: nothing changed.`,
            OPERATOR_FLASH,
          );
          return redirect(req, reply, workerPath(workerId, back));
        } catch (err) {
          if (err instanceof ActionRefused && err.status !== 404) {
            reply.code(err.status);
            return detailPage(req, reply, workerId, company ? { company } : {}, {
              assign: err.message,
            });
          }
          throw pageErrorOf(err);
        }
      },
    );

    app.post(
      '/workers/:workerId/unassign',
      { schema: { params: WorkerParams, body: AccountsForm } },
      async (req, reply) => {
        const { workerId } = req.params;
        try {
          const { worker, taken } = await operatorUnassignAccounts(
            ctx.db,
            ctx.clock,
            actorOf(sessionOf(req)),
            workerId,
            valuesOf(req.body.account),
          );
          setScopedFlash(
            ctx,
            req,
            reply,
            `${plural(taken, 'account')} taken from ${worker.name}: nothing is released to ${taken === 1 ? 'it' : 'them'} until another worker has ${taken === 1 ? 'it' : 'them'}.`,
            OPERATOR_FLASH,
          );
          return redirect(req, reply, workerPath(workerId));
        } catch (err) {
          if (err instanceof ActionRefused && err.status !== 404) {
            reply.code(err.status);
            return detailPage(req, reply, workerId, {}, { unassign: err.message });
          }
          throw pageErrorOf(err);
        }
      },
    );
  };
}
