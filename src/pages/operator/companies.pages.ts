// Companies in the operator console: the list (plan, accounts, posts created today,
// suspended or not), creating one, and on its page changing its plan and the platformB
// feed-post capability, suspending and resuming it, and inviting an admin with a one-time
// link. The operators module does each action, recording it in the operator log and in
// the company's activity log.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { setScopedFlash, takeScopedFlash } from '../kit/flash.ts';
import { redirect } from '../kit/session.ts';
import { CliError } from '../../lib/cli-error.ts';
import { MAX_COMPANY_NAME, getCompany, type CompanyInfo } from '../../modules/companies/index.ts';
import {
  listOperatorLog,
  operatorChangeCompany,
  operatorCreateCompany,
  operatorInviteAdmin,
  operatorSuspendCompany,
} from '../../modules/operators/index.ts';
import { companyDetail, companyOverview } from './companies-board.ts';
import { USER_LINK_MS, userWelcomeUrl } from '../../modules/users/index.ts';
import { TIMEZONES } from './fields.ts';
import { consolePage } from './layout.ts';
import { describeEntry } from './log-text.ts';
import { OPERATOR_BASE, OPERATOR_FLASH, actorOf, sessionOf } from './session.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

const PAGE_SIZE = 50;
/** Entries of the operator log a company's page shows. */
const RECENT_LOG = 10;
const MAX_REASON = 500;

// `before` is `createdAt|companyId` of the last company shown: a position, not a secret.
const ListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })),
  before: Type.Optional(Type.String()),
});
const CompanyParams = Type.Object({ companyId: Type.String() });
/** The forms as sent: every field an optional string, checked by the handler. */
const NewCompanyForm = Type.Object({
  name: Type.Optional(Type.String()),
  plan: Type.Optional(Type.String()),
  platformBFeedPosts: Type.Optional(Type.String()),
  defaultTimezone: Type.Optional(Type.String()),
});
const SettingsForm = Type.Object({
  plan: Type.Optional(Type.String()),
  platformBFeedPosts: Type.Optional(Type.String()),
});
const SuspendForm = Type.Object({ reason: Type.Optional(Type.String()) });
const InviteForm = Type.Object({ email: Type.Optional(Type.String()) });

type FieldErrors = Record<string, string>;

interface NewCompanyFields {
  name: string;
  plan: string;
  platformBFeedPosts: boolean;
  defaultTimezone: string;
}

function positionOf(before: string | undefined): [string, string] | undefined {
  const parts = before?.split('|') ?? [];
  return parts.length === 2 && parts[0] && parts[1] ? [parts[0], parts[1]] : undefined;
}

export function companyPages(ctx: AppContext) {
  const plans = () => Object.keys(ctx.config.plans);
  const companyPath = (companyId: string) =>
    `${OPERATOR_BASE}/companies/${encodeURIComponent(companyId)}`;

  function checkNewCompany(form: NewCompanyFields): FieldErrors {
    const errors: FieldErrors = {};
    const length = [...form.name].length;
    if (length === 0) errors.name = 'Enter the company’s name.';
    else if (length > MAX_COMPANY_NAME) {
      errors.name = `A name has at most ${MAX_COMPANY_NAME} characters.`;
    }
    if (!plans().includes(form.plan)) errors.plan = 'Choose a plan from the list.';
    return errors;
  }

  function newCompanyPage(
    req: FastifyRequest,
    reply: FastifyReply,
    form: NewCompanyFields,
    errors: FieldErrors,
  ) {
    return consolePage(req, reply, 'company-new.eta', 'New company', {
      form,
      errors,
      plans: plans(),
      timezones: TIMEZONES,
      defaultTimezone: ctx.config.defaultTimezone,
    });
  }

  async function detailPage(
    req: FastifyRequest,
    reply: FastifyReply,
    companyId: string,
    extra: { settingsErrors?: FieldErrors; inviteError?: string; inviteEmail?: string } = {},
  ) {
    const detail = await companyDetail(ctx.db, ctx.clock, companyId);
    // An unknown id and a malformed one answer alike.
    if (!detail) throw new ActionRefused('not_found', 'There is no company with this id.');
    const log = await listOperatorLog(ctx.db, { companyId, limit: RECENT_LOG });
    return consolePage(req, reply, 'company.eta', detail.company.name, {
      ...detail,
      plans: plans(),
      log: log.map((e) => ({ ...e, text: describeEntry(e) })),
      done: takeScopedFlash(ctx, req, reply, OPERATOR_FLASH),
      settingsErrors: extra.settingsErrors ?? {},
      inviteError: extra.inviteError ?? null,
      inviteEmail: extra.inviteEmail ?? '',
      mailOn: ctx.mailing !== null,
    });
  }

  async function companyOr404(companyId: string): Promise<CompanyInfo> {
    const company = await getCompany(ctx.db, companyId);
    if (!company) throw new ActionRefused('not_found', 'There is no company with this id.');
    return company;
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/companies', { schema: { querystring: ListQuery } }, async (req, reply) => {
      const q = req.query.q?.trim() ?? '';
      const before = positionOf(req.query.before);
      const rows = await companyOverview(ctx.db, ctx.clock, {
        ...(before ? { before } : {}),
        ...(q ? { nameContains: q } : {}),
        limit: PAGE_SIZE + 1,
      });
      const shown = rows.slice(0, PAGE_SIZE);
      const last = shown[shown.length - 1];
      const query = q ? `q=${encodeURIComponent(q)}&` : '';
      return consolePage(req, reply, 'companies.eta', 'Companies', {
        rows: shown,
        q,
        paged: before !== undefined,
        first: `${OPERATOR_BASE}/companies${q ? `?q=${encodeURIComponent(q)}` : ''}`,
        next:
          rows.length > PAGE_SIZE && last
            ? `${OPERATOR_BASE}/companies?${query}before=${encodeURIComponent(`${last.company.createdAt}|${last.company.companyId}`)}`
            : null,
        done: takeScopedFlash(ctx, req, reply, OPERATOR_FLASH),
      });
    });

    app.get('/companies/new', async (req, reply) =>
      newCompanyPage(
        req,
        reply,
        { name: '', plan: ctx.config.defaultPlan, platformBFeedPosts: false, defaultTimezone: '' },
        {},
      ),
    );

    app.post('/companies', { schema: { body: NewCompanyForm } }, async (req, reply) => {
      const form: NewCompanyFields = {
        name: req.body.name?.trim() ?? '',
        plan: req.body.plan ?? '',
        platformBFeedPosts: req.body.platformBFeedPosts === 'on',
        defaultTimezone: req.body.defaultTimezone?.trim() ?? '',
      };
      const errors = checkNewCompany(form);
      if (Object.keys(errors).length === 0) {
        try {
          const company = await operatorCreateCompany(
            ctx.db,
            ctx.clock,
            ctx.config.plans,
            actorOf(sessionOf(req)),
            {
              name: form.name,
              plan: form.plan,
              platformBFeedPosts: form.platformBFeedPosts,
              ...(form.defaultTimezone ? { defaultTimezone: form.defaultTimezone } : {}),
            },
          );
          setScopedFlash(ctx, req, reply, `Company “${company.name}” created.`, OPERATOR_FLASH);
          return redirect(req, reply, companyPath(company.companyId));
        } catch (err) {
          // The plan and name are checked above: what the service refuses is the timezone.
          if (!(err instanceof CliError)) throw err;
          errors.defaultTimezone = `“${form.defaultTimezone}” is not an IANA timezone; pick one from the suggestions, such as Europe/Berlin.`;
        }
      }
      reply.code(400);
      return newCompanyPage(req, reply, form, errors);
    });

    const one = { schema: { params: CompanyParams } };
    app.get('/companies/:companyId', one, async (req, reply) =>
      detailPage(req, reply, req.params.companyId),
    );

    app.post(
      '/companies/:companyId/settings',
      { schema: { params: CompanyParams, body: SettingsForm } },
      async (req, reply) => {
        const { companyId } = req.params;
        const plan = req.body.plan ?? '';
        await companyOr404(companyId);
        if (!plans().includes(plan)) {
          reply.code(400);
          return detailPage(req, reply, companyId, {
            settingsErrors: { plan: 'Choose a plan from the list.' },
          });
        }
        const { company, changes } = await operatorChangeCompany(
          ctx.db,
          ctx.clock,
          ctx.config.plans,
          actorOf(sessionOf(req)),
          companyId,
          { plan, platformBFeedPosts: req.body.platformBFeedPosts === 'on' },
        );
        setScopedFlash(
          ctx,
          req,
          reply,
          changes.length > 0 ? `“${company.name}” updated.` : 'Nothing changed.',
          OPERATOR_FLASH,
        );
        return redirect(req, reply, companyPath(companyId));
      },
    );

    app.get('/companies/:companyId/suspend', one, async (req, reply) => {
      const company = await companyOr404(req.params.companyId);
      return consolePage(req, reply, 'company-suspend.eta', `Suspend ${company.name}`, {
        company,
        error: null,
        reason: '',
        maxReason: MAX_REASON,
      });
    });

    app.post(
      '/companies/:companyId/suspend',
      { schema: { params: CompanyParams, body: SuspendForm } },
      async (req, reply) => {
        const company = await companyOr404(req.params.companyId);
        const reason = req.body.reason?.trim() ?? '';
        if ([...reason].length > MAX_REASON) {
          reply.code(400);
          return consolePage(req, reply, 'company-suspend.eta', `Suspend ${company.name}`, {
            company,
            error: `A reason has at most ${MAX_REASON} characters.`,
            reason,
            maxReason: MAX_REASON,
          });
        }
        const r = await operatorSuspendCompany(
          ctx.db,
          ctx.clock,
          actorOf(sessionOf(req)),
          company.companyId,
          true,
          reason,
        );
        setScopedFlash(
          ctx,
          req,
          reply,
          r.changed
            ? `“${r.company.name}” is suspended: its API keys and users are refused until it is resumed.`
            : `“${r.company.name}” was suspended already.`,
          OPERATOR_FLASH,
        );
        return redirect(req, reply, companyPath(company.companyId));
      },
    );

    app.post('/companies/:companyId/resume', one, async (req, reply) => {
      const company = await companyOr404(req.params.companyId);
      const r = await operatorSuspendCompany(
        ctx.db,
        ctx.clock,
        actorOf(sessionOf(req)),
        company.companyId,
        false,
      );
      setScopedFlash(
        ctx,
        req,
        reply,
        r.changed
          ? `“${r.company.name}” is resumed: its API keys and users work again.`
          : `“${r.company.name}” was not suspended.`,
        OPERATOR_FLASH,
      );
      return redirect(req, reply, companyPath(company.companyId));
    });

    app.post(
      '/companies/:companyId/invite',
      { schema: { params: CompanyParams, body: InviteForm } },
      async (req, reply) => {
        const company = await companyOr404(req.params.companyId);
        const email = req.body.email?.trim() ?? '';
        let error: string | null = null;
        if (email.length === 0) error = 'Enter the email address of the person to invite.';
        else if (email.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(email)) {
          error = `“${email}” is not an email address.`;
        } else {
          try {
            const { user, link } = await operatorInviteAdmin(
              ctx.db,
              ctx.clock,
              actorOf(sessionOf(req)),
              company.companyId,
              email,
              ctx.mailing,
            );
            // The link exists only in this response (its token is stored as a digest), so
            // this page is the answer to the POST rather than a redirect.
            return consolePage(req, reply, 'invite-link.eta', `Invitation for ${user.email}`, {
              company,
              user,
              url: userWelcomeUrl(ctx.config.publicUrl, link.token),
              expiresAt: link.expiresAt,
              hours: USER_LINK_MS / 3_600_000,
              emailed: link.emailed,
            });
          } catch (err) {
            if (!(err instanceof CliError)) throw err;
            error = /already exists/.test(err.message)
              ? `${email.toLowerCase()} already has a Slotline account (an email belongs to one user).`
              : err.message;
          }
        }
        reply.code(400);
        return detailPage(req, reply, company.companyId, {
          inviteError: error,
          inviteEmail: email,
        });
      },
    );
  };
}
