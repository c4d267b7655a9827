// What needs an operator now. The setup queue: accounts waiting to be set up, oldest first
// across companies, with everything their company asked for and how long they have waited,
// each handed to an active worker from the row. The fulfilment board: released tasks
// unclaimed and claimed (with their report deadlines), unconfirmed and failed ones, and
// accounts whose worker lost access, by company and by worker; from it an account moves
// to another worker. The operators module does each move and records it.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ActionRefused } from '../../lib/action-refused.ts';
import { setScopedFlash, takeScopedFlash } from '../kit/flash.ts';
import { redirect } from '../kit/session.ts';
import { accountSummaries } from '../../modules/accounts/index.ts';
import { getCompany, listCompanies } from '../../modules/companies/index.ts';
import { operatorMoveAccount } from '../../modules/operators/index.ts';
import {
  CONSOLE_SECTION_ROWS,
  activeByName,
  boardOverview,
  setupOverview,
} from './fulfilment-board.ts';
import { WorkerError, getWorker, listWorkers } from '../../modules/workers/index.ts';
import { pageErrorOf } from './fields.ts';
import { consolePage } from './layout.ts';
import { OPERATOR_BASE, OPERATOR_FLASH, actorOf, sessionOf } from './session.ts';

/** The board's filters: a company and/or a worker, by id (the selects send ids). */
const BoardQuery = Type.Object({
  company: Type.Optional(Type.String({ maxLength: 200 })),
  worker: Type.Optional(Type.String({ maxLength: 200 })),
});
const AccountParams = Type.Object({ accountId: Type.String({ maxLength: 200 }) });
/** The forms as sent: every field an optional string, checked by the handler. */
const AssignForm = Type.Object({ worker: Type.Optional(Type.String()) });
const MoveForm = Type.Object({
  to: Type.Optional(Type.String()),
  company: Type.Optional(Type.String()),
  worker: Type.Optional(Type.String()),
});

interface Filter {
  companyId?: string;
  workerId?: string;
}

/** The board's sections in the order shown, with what each means. */
const SECTIONS = [
  {
    key: 'unclaimed',
    title: 'Released, not claimed',
    intro: 'Released to their accounts’ workers, who have not claimed them yet.',
    empty: 'Every released task has been claimed.',
  },
  {
    key: 'claimed',
    title: 'Claimed, not reported',
    intro: 'Claimed by a worker who has not reported the outcome yet, by report deadline.',
    empty: 'No claimed task is waiting for its report.',
  },
  {
    key: 'unconfirmed',
    title: 'Unconfirmed',
    intro:
      'Claimed but never reported before the deadline: the worker may have posted. Released in the last 7 days, newest first.',
    empty: 'No task went unconfirmed in the last 7 days.',
  },
  {
    key: 'failed',
    title: 'Failed',
    intro:
      'Reported failed, or never claimed before the deadline. Released in the last 7 days, newest first.',
    empty: 'No task failed in the last 7 days.',
  },
] as const;

/** The board's address with these filters. */
function boardUrl(filter: Filter): string {
  const params = new URLSearchParams();
  if (filter.companyId) params.set('company', filter.companyId);
  if (filter.workerId) params.set('worker', filter.workerId);
  const qs = params.toString();
  return `${OPERATOR_BASE}/board${qs ? `?${qs}` : ''}`;
}

/** Filters sent back by a form: kept only when they could be ids. */
function filterOf(company: string | undefined, worker: string | undefined): Filter {
  const ok = (v: string | undefined) => (v && v.length <= 200 ? v : undefined);
  const companyId = ok(company);
  const workerId = ok(worker);
  return { ...(companyId ? { companyId } : {}), ...(workerId ? { workerId } : {}) };
}

export function fulfilmentPages(ctx: AppContext) {
  async function setupPage(
    req: FastifyRequest,
    reply: FastifyReply,
    problem: { accountId: string; message: string } | null = null,
  ) {
    const view = await setupOverview(ctx.db, ctx.clock);
    return consolePage(req, reply, 'setup.eta', 'Account setup queue', {
      ...view,
      shown: CONSOLE_SECTION_ROWS,
      problem,
      done: takeScopedFlash(ctx, req, reply, OPERATOR_FLASH),
    });
  }

  /** The account to move, with its company's and worker's names; 404 for an unknown id. */
  async function accountToMove(accountId: string) {
    const [account] = await accountSummaries(ctx.db, [accountId]);
    if (!account) throw new ActionRefused('not_found', 'There is no account with this id.');
    const [company, workers] = await Promise.all([
      getCompany(ctx.db, account.companyId),
      listWorkers(ctx.db),
    ]);
    const current = workers.find((w) => w.workerId === account.workerId) ?? null;
    return {
      account,
      companyName: company?.name ?? '',
      current,
      workers: activeByName(workers).filter((w) => w.workerId !== account.workerId),
    };
  }

  async function movePage(
    req: FastifyRequest,
    reply: FastifyReply,
    accountId: string,
    filter: Filter,
    error: string | null = null,
  ) {
    const facts = await accountToMove(accountId);
    return consolePage(req, reply, 'board-move.eta', `Move @${facts.account.username}`, {
      ...facts,
      filter,
      back: boardUrl(filter),
      error,
    });
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/setup', async (req, reply) => setupPage(req, reply));

    app.post(
      '/setup/:accountId/assign',
      { schema: { params: AccountParams, body: AssignForm } },
      async (req, reply) => {
        const { accountId } = req.params;
        const workerId = req.body.worker ?? '';
        if (workerId === '') {
          reply.code(400);
          return setupPage(req, reply, {
            accountId,
            message: 'Choose the worker to give this account to.',
          });
        }
        try {
          const { account, worker, changed } = await operatorMoveAccount(
            ctx.db,
            ctx.clock,
            actorOf(sessionOf(req)),
            accountId,
            workerId,
          );
          setScopedFlash(
            ctx,
            req,
            reply,
            changed
              ? `@${account.username} is ${worker.name}’s to set up, in ${worker.timezone}.`
              : `${worker.name} operated @${account.username} already: nothing changed.`,
            OPERATOR_FLASH,
          );
          return redirect(req, reply, `${OPERATOR_BASE}/setup`);
        } catch (err) {
          if (err instanceof ActionRefused && err.status !== 404) {
            reply.code(err.status);
            return setupPage(req, reply, { accountId, message: err.message });
          }
          throw pageErrorOf(err);
        }
      },
    );

    app.get('/board', { schema: { querystring: BoardQuery } }, async (req, reply) => {
      const filter = filterOf(req.query.company, req.query.worker);
      const [company, worker] = await Promise.all([
        filter.companyId ? getCompany(ctx.db, filter.companyId) : undefined,
        filter.workerId
          ? getWorker(ctx.db, filter.workerId).catch((err: unknown) => {
              if (err instanceof WorkerError) return undefined;
              throw err;
            })
          : undefined,
      ]);
      if (filter.companyId && !company)
        throw new ActionRefused('not_found', 'There is no company with this id.');
      if (filter.workerId && !worker)
        throw new ActionRefused('not_found', 'There is no worker with this id.');
      const [view, companies, workers] = await Promise.all([
        boardOverview(
          ctx.db,
          ctx.clock,
          filter,
          ctx.config.taskReportTimeoutMs,
          ctx.config.handoffUnclaimedMs,
        ),
        listCompanies(ctx.db),
        listWorkers(ctx.db),
      ]);
      companies.sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
      const params = new URLSearchParams();
      if (filter.companyId) params.set('company', filter.companyId);
      if (filter.workerId) params.set('worker', filter.workerId);
      return consolePage(req, reply, 'board.eta', 'Fulfilment board', {
        view,
        sections: SECTIONS,
        filter,
        company: company ?? null,
        worker: worker ?? null,
        companies,
        workers: [
          ...activeByName(workers),
          ...workers
            .filter((w) => w.revokedAt !== null)
            .sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' })),
        ],
        moveQuery: params.toString() ? `?${params.toString()}` : '',
        shown: CONSOLE_SECTION_ROWS,
        now: ctx.clock.now().getTime(),
        done: takeScopedFlash(ctx, req, reply, OPERATOR_FLASH),
      });
    });

    app.get(
      '/board/accounts/:accountId',
      { schema: { params: AccountParams, querystring: BoardQuery } },
      async (req, reply) =>
        movePage(req, reply, req.params.accountId, filterOf(req.query.company, req.query.worker)),
    );

    app.post(
      '/board/accounts/:accountId',
      { schema: { params: AccountParams, body: MoveForm } },
      async (req, reply) => {
        const { accountId } = req.params;
        const filter = filterOf(req.body.company, req.body.worker);
        const to = req.body.to ?? '';
        if (to === '') {
          reply.code(400);
          return movePage(req, reply, accountId, filter, 'Choose the worker to move it to.');
        }
        try {
          const { account, worker, from, changed } = await operatorMoveAccount(
            ctx.db,
            ctx.clock,
            actorOf(sessionOf(req)),
            accountId,
            to,
          );
          setScopedFlash(
            ctx,
            req,
            reply,
            changed
              ? `@${account.username} moved ${from ? `from ${from} ` : ''}to ${worker.name}, in ${worker.timezone}. Tasks already released stay with whoever has them.`
              : `${worker.name} operated @${account.username} already: nothing changed.`,
            OPERATOR_FLASH,
          );
          return redirect(req, reply, boardUrl(filter));
        } catch (err) {
          if (err instanceof ActionRefused && err.status !== 404) {
            reply.code(err.status);
            return movePage(req, reply, accountId, filter, err.message);
          }
          throw pageErrorOf(err);
        }
      },
    );
  };
}
