// The accounts of the workers' app: each account the worker operates with the profile its
// company asked for (every field with a copy button), the set-up steps (report it warming
// up, then active; or disconnected, with a reason), the warm-up search terms, and its
// statistics. Reports go through reportAccountStatus and reportAccountStats with the worker
// API's validation; both are safe to send twice (the same status changes nothing, and the
// figures replace the last ones).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { compileValidator, validationError } from '../../http/validation.ts';
import {
  AccountStatsBody,
  AccountStatusBody,
  reportAccountStats,
  reportAccountStatus,
  workerAppAccount,
  workerAppAccounts,
  type AccountStatsInput,
  type AccountStatusInput,
  type WorkerAppAccount,
} from '../../modules/workers/index.ts';
import { setScopedFlash, takeScopedFlash } from '../kit/flash.ts';
import { redirect } from '../kit/session.ts';
import {
  WORKER_BASE,
  WORKER_FLASH,
  formatsFor,
  parseCount,
  parsePercent,
  plainMessage,
  fieldOf,
  sessionOf,
  workerPage,
  type FieldErrors,
} from './layout.ts';

/** The worker API's body validators: the app refuses exactly what /worker/v1 refuses. */
const validStatus = compileValidator(AccountStatusBody, 'body');
const validStats = compileValidator(AccountStatsBody, 'body');

const AccountParams = Type.Object({ accountId: Type.String() });
const StatusForm = Type.Object({
  status: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String()),
});
const STAT_FIELDS = [
  'followers',
  'posts',
  'engagement',
  'views',
  'likes',
  'comments',
  'scannedPosts',
] as const;
type StatField = (typeof STAT_FIELDS)[number];
const StatsForm = Type.Object({
  followers: Type.Optional(Type.String()),
  posts: Type.Optional(Type.String()),
  engagement: Type.Optional(Type.String()),
  views: Type.Optional(Type.String()),
  likes: Type.Optional(Type.String()),
  comments: Type.Optional(Type.String()),
  scannedPosts: Type.Optional(Type.String()),
});

/** Each figure's name as the form labels it. */
const STAT_LABELS: Record<StatField, string> = {
  followers: 'Followers',
  posts: 'Posts',
  engagement: 'Engagement rate',
  views: 'Views',
  likes: 'Likes',
  comments: 'Comments',
  scannedPosts: 'Posts these figures cover',
};
const LABELS: Record<string, string> = { ...STAT_LABELS, reason: 'The reason', status: 'Status' };

/** What a status report did, for the notice of the page it leads back to. */
const REPORTED: Record<AccountStatusInput['status'], (username: string) => string> = {
  warming_up: (u) => `@${u} is warming up. Search for the terms below.`,
  active: (u) => `@${u} is ready to post.`,
  disconnected: (u) => `@${u} is reported disconnected.`,
};

/** A refused form on the account page: which one, what it sent and why, by field. */
interface AccountFormState {
  form: 'status' | 'stats';
  values: Record<string, string>;
  errors: FieldErrors;
}

/** The figures form's fields as last reported, to start from. */
function statsValues(account: WorkerAppAccount): Record<string, string> {
  const s = account.stats;
  if (!s) return {};
  return {
    followers: String(s.followers),
    posts: String(s.posts),
    engagement: String(s.engagement),
    views: String(s.views),
    likes: String(s.likes),
    comments: String(s.comments),
    scannedPosts: String(s.scannedPosts),
  };
}

export function workerAccountPages(ctx: AppContext) {
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const plain = (req: FastifyRequest, message: string) =>
      plainMessage(message, LABELS, formatsFor(sessionOf(req).worker.timezone, ctx.clock.now()));
    const accountPage = async (
      req: FastifyRequest,
      reply: FastifyReply,
      accountId: string,
      state: AccountFormState | null,
      notice: string | null = null,
    ) => {
      const account = await workerAppAccount(ctx, sessionOf(req).worker, accountId);
      return workerPage(req, reply, ctx.clock.now(), 'account.eta', `@${account.username}`, {
        account,
        form: state?.form ?? null,
        values: state?.values ?? {},
        errors: state?.errors ?? {},
        stats: state?.form === 'stats' ? state.values : statsValues(account),
        labels: STAT_LABELS,
        fields: STAT_FIELDS,
        notice,
      });
    };
    const toAccount = (req: FastifyRequest, reply: FastifyReply, accountId: string) =>
      redirect(req, reply, `${WORKER_BASE}/accounts/${encodeURIComponent(accountId)}`);

    app.get('/accounts', async (req, reply) => {
      const accounts = await workerAppAccounts(ctx, sessionOf(req).worker);
      return workerPage(req, reply, ctx.clock.now(), 'accounts.eta', 'Your accounts', {
        accounts: accounts.sort((a, b) => a.username.localeCompare(b.username)),
      });
    });

    const accountRoute = { schema: { params: AccountParams } };
    app.get('/accounts/:accountId', accountRoute, async (req, reply) =>
      accountPage(
        req,
        reply,
        req.params.accountId,
        null,
        takeScopedFlash(ctx, req, reply, WORKER_FLASH),
      ),
    );

    const statusRoute = { schema: { params: AccountParams, body: StatusForm } };
    app.post('/accounts/:accountId/status', statusRoute, async (req, reply) => {
      const { worker } = sessionOf(req);
      const { accountId } = req.params;
      const status = req.body.status ?? '';
      const reason = (req.body.reason ?? '').trim();
      const values = { status, reason };
      // A reason goes with `disconnected` only, and there the company needs one.
      const input = status === 'disconnected' ? { status, reason } : { status };
      const errors: FieldErrors = {};
      if (status === 'disconnected' && reason === '') {
        errors.reason = 'Say why the account is disconnected: the company reads it.';
      } else if (!validStatus(input)) {
        const err = validationError(validStatus.errors ?? [], 'body').message;
        errors[fieldOf(err, ['reason'])] = plain(req, err);
      }
      const refuse = (code: number) => {
        reply.code(code);
        return accountPage(req, reply, accountId, { form: 'status', values, errors });
      };
      if (Object.keys(errors).length > 0) return refuse(400);
      let account;
      try {
        account = await reportAccountStatus(ctx, worker, accountId, input as AccountStatusInput);
      } catch (err) {
        if (!(err instanceof ApiError) || err.code === 'account_not_found') throw err;
        errors[fieldOf(err.message, ['reason'])] = plain(req, err.message);
        return refuse(err.status);
      }
      const done = REPORTED[input.status as AccountStatusInput['status']](account.username);
      setScopedFlash(ctx, req, reply, done, WORKER_FLASH);
      return toAccount(req, reply, accountId);
    });

    const statsRoute = { schema: { params: AccountParams, body: StatsForm } };
    app.post('/accounts/:accountId/stats', statsRoute, async (req, reply) => {
      const { worker } = sessionOf(req);
      const { accountId } = req.params;
      const values: Record<string, string> = {};
      const errors: FieldErrors = {};
      const input: Record<string, number> = {};
      for (const field of STAT_FIELDS) {
        const text = req.body[field] ?? '';
        values[field] = text;
        const label = STAT_LABELS[field].toLowerCase();
        const n = field === 'engagement' ? parsePercent(text) : parseCount(text);
        if (text.trim() === '') errors[field] = `Enter the ${label} (0 if there are none).`;
        else if (n === null) {
          errors[field] =
            field === 'engagement'
              ? 'Type the engagement rate as a percentage, like 4.25.'
              : `Type the ${label} as a whole number, like 12500.`;
        } else input[field] = n;
      }
      if (Object.keys(errors).length === 0 && !validStats(input)) {
        const err = validationError(validStats.errors ?? [], 'body').message;
        errors[fieldOf(err, STAT_FIELDS)] = plain(req, err);
      }
      const refuse = (code: number) => {
        reply.code(code);
        return accountPage(req, reply, accountId, { form: 'stats', values, errors });
      };
      if (Object.keys(errors).length > 0) return refuse(400);
      try {
        await reportAccountStats(ctx, worker, accountId, input as unknown as AccountStatsInput);
      } catch (err) {
        if (!(err instanceof ApiError) || err.code === 'account_not_found') throw err;
        errors[fieldOf(err.message, STAT_FIELDS)] = plain(req, err.message);
        return refuse(err.status);
      }
      setScopedFlash(ctx, req, reply, 'Account figures saved.', WORKER_FLASH);
      return toAccount(req, reply, accountId);
    });
  };
}
