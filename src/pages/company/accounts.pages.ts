// Accounts (dashboard page 3): the company's publishing accounts with their status,
// worker, timezone and queue; creating one (SPEC 4.4), pausing and resuming (DECISIONS 7).
// The accounts service does the work and records who acted in the activity log.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import {
  findAccountsByIds,
  setPaused,
  listAccounts,
  CreateAccountBody,
  ListAccountsQuery,
  createAccount,
} from '../../modules/accounts/index.ts';
import { getCompanyRow } from '../../modules/companies/index.ts';
import { listWorkers } from '../../modules/workers/index.ts';
import { fieldError, formCheck, type FieldError } from './forms.ts';
import { page } from './layout.ts';
import { setFlash, takeFlash } from './flash.ts';
import { BASE, redirect, userOf, actorOf } from './session.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

/** Accounts a page of the list shows (a page's first load stays small: issue 22). */
const PAGE_SIZE = 25;
// The API's own body rules, so the form and POST /v2/accounts refuse the same input; every
// error at once, named as the form labels its fields (pages/kit/form-errors.ts).
const checkCreate = formCheck(CreateAccountBody, {
  platform: { label: 'Platform', id: 'a-platform' },
  username: { label: 'Username', id: 'a-username' },
  displayName: { label: 'Display name', id: 'a-display' },
  bio: { label: 'Bio', id: 'a-bio' },
  profilePictureUrl: { label: 'Profile picture URL', id: 'a-picture' },
  bioUrl: { label: 'Bio link', id: 'a-bio-url' },
  'warmup.searchTerms': {
    label: 'Warm-up search terms',
    field: 'searchTerms',
    id: 'a-terms',
    item: 'term',
  },
});

const AccountsQuery = Type.Object({ cursor: ListAccountsQuery.properties.cursor });
const AccountParams = Type.Object({ accountId: Type.String() });

/** The form as sent: the API's body, flattened (search terms one a line). */
const CreateAccountForm = Type.Object({
  platform: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
  displayName: Type.Optional(Type.String()),
  bio: Type.Optional(Type.String()),
  profilePictureUrl: Type.Optional(Type.String()),
  bioUrl: Type.Optional(Type.String()),
  searchTerms: Type.Optional(Type.String()),
});

/** The form's fields as typed, to show them again next to an error. */
type CreateForm = Required<Static<typeof CreateAccountForm>>;

function formOf(body: Static<typeof CreateAccountForm>): CreateForm {
  return {
    platform: body.platform ?? '',
    username: (body.username ?? '').trim().replace(/^@/, ''),
    displayName: (body.displayName ?? '').trim(),
    bio: (body.bio ?? '').trim(),
    profilePictureUrl: (body.profilePictureUrl ?? '').trim(),
    bioUrl: (body.bioUrl ?? '').trim(),
    searchTerms: body.searchTerms ?? '',
  };
}

/** The API body the form stands for: one search term a line (or comma-separated). */
function inputOf(form: CreateForm): unknown {
  const terms = form.searchTerms
    .split(/[\n,]/)
    .map((t) => t.trim())
    .filter((t) => t !== '');
  return {
    platform: form.platform,
    username: form.username,
    displayName: form.displayName,
    bio: form.bio,
    profilePictureUrl: form.profilePictureUrl,
    ...(form.bioUrl ? { bioUrl: form.bioUrl } : {}),
    warmup: { searchTerms: terms },
  };
}

/** A refusal of the accounts service, next to the username or for the whole form. */
function refusalOf(err: ApiError, form: CreateForm): FieldError {
  if (err.code === 'account_exists') {
    return fieldError(
      'username',
      `Username: @${form.username} on ${form.platform} already exists in this company.`,
      'a-username',
    );
  }
  return fieldError('', `${err.message}.`, '');
}

const EMPTY_FORM: CreateForm = {
  platform: 'platformA',
  username: '',
  displayName: '',
  bio: '',
  profilePictureUrl: '',
  bioUrl: '',
  searchTerms: '',
};

function newAccountPage(
  req: FastifyRequest,
  reply: FastifyReply,
  form: CreateForm,
  errors: FieldError[],
) {
  return page(req, reply, 'account-new.eta', 'New account', { form, errors });
}

export function accountPages(ctx: AppContext) {
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/accounts', { schema: { querystring: AccountsQuery } }, async (req, reply) => {
      const user = userOf(req);
      const { cursor } = req.query;
      let result;
      try {
        result = await listAccounts(ctx, user.companyId, {
          limit: PAGE_SIZE,
          ...(cursor ? { cursor } : {}),
        });
      } catch (err) {
        if (err instanceof ApiError && err.code === 'invalid_cursor') {
          return redirect(req, reply, `${BASE}/accounts`);
        }
        throw err;
      }
      const ids = result.data.map((a) => a.accountId);
      const [assigned, workers] = await Promise.all([
        findAccountsByIds(ctx.db, ids),
        ids.length > 0 ? listWorkers(ctx.db) : Promise.resolve([]),
      ]);
      const workerName = new Map(workers.map((w) => [w.workerId, w.name]));
      const workerOf = new Map(
        assigned
          .filter((a) => a.company_id === user.companyId && a.worker_id !== null)
          .map((a) => [a.id, workerName.get(a.worker_id as string) ?? null]),
      );
      return page(req, reply, 'accounts.eta', 'Accounts', {
        accounts: result.data.map((a) => ({ ...a, worker: workerOf.get(a.accountId) ?? null })),
        next: result.nextCursor
          ? `${BASE}/accounts?cursor=${encodeURIComponent(result.nextCursor)}`
          : null,
        first: cursor ? `${BASE}/accounts` : null,
        done: takeFlash(ctx, req, reply),
        canEdit: user.role !== 'viewer',
      });
    });

    app.get('/accounts/new', { config: { role: 'editor' } }, async (req, reply) =>
      newAccountPage(req, reply, EMPTY_FORM, []),
    );

    app.post(
      '/accounts',
      { config: { role: 'editor' }, schema: { body: CreateAccountForm } },
      async (req, reply) => {
        const user = userOf(req);
        const form = formOf(req.body);
        const checked = checkCreate(inputOf(form));
        if (!checked.ok) {
          reply.code(400);
          return newAccountPage(req, reply, form, checked.errors);
        }
        try {
          const company = await getCompanyRow(ctx.db, user.companyId);
          if (!company) throw new ActionRefused('not_found', 'Not found.');
          const account = await createAccount(
            ctx,
            { companyId: user.companyId, plan: company.plan },
            checked.value,
            actorOf(user),
          );
          setFlash(ctx, req, reply, `Created @${account.username} (${account.platform}).`);
          return redirect(req, reply, `${BASE}/accounts`);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          reply.code(err.status);
          return newAccountPage(req, reply, form, [refusalOf(err, form)]);
        }
      },
    );

    for (const pause of [true, false]) {
      app.post(
        `/accounts/:accountId/${pause ? 'pause' : 'resume'}`,
        { config: { role: 'editor' }, schema: { params: AccountParams } },
        async (req, reply) => {
          const user = userOf(req);
          const { accountId } = req.params;
          try {
            await setPaused(ctx, user.companyId, accountId, pause, actorOf(user));
          } catch (err) {
            // Another company's account reads exactly as an unknown one.
            if (err instanceof ApiError && err.code === 'account_not_found') {
              throw new ActionRefused('not_found', 'Not found.');
            }
            throw err;
          }
          setFlash(ctx, req, reply, pause ? 'Account paused.' : 'Account resumed.');
          return redirect(req, reply, `${BASE}/accounts`);
        },
      );
    }
  };
}
