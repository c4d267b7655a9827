// The schedule editor (dashboard page 4): the company default and each account's override,
// up to four HH:mm windows or none (SPEC 4.5, DECISIONS 5). The schedules service checks
// the rules and records the change; dashboard.js checks the same rules as the user types,
// only to say early what the server will answer.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { getAccount } from '../../modules/accounts/index.ts';
import {
  APPROVAL_LEAD_CHOICES,
  getCompanyRow,
  setApprovalLead,
} from '../../modules/companies/index.ts';
import { leadWords } from '../../modules/notify/index.ts';
import {
  getAccountSchedule,
  getCompanySchedule,
  setAccountSchedule,
  setCompanySchedule,
} from '../../modules/schedules/index.ts';
import type { ScheduleInputBody } from '../../modules/schedules/index.ts';
import { Repeated, valuesOf } from './forms.ts';
import { page } from './layout.ts';
import { setFlash, takeFlash } from './flash.ts';
import { BASE, redirect, userOf, actorOf } from './session.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

/** SPEC 4.5 rule 1: at most four windows. */
const SLOTS = 4;

/**
 * The form as sent: a time field per slot, left empty or not, and the button pressed. The
 * schedules service checks the windows by the API's rules, so a refusal reads as the
 * API's, turned into words for the slot it names.
 */
const ScheduleForm = Type.Object({
  window: Type.Optional(Repeated),
  action: Type.Optional(Type.String()),
});
type ScheduleFormIn = Static<typeof ScheduleForm>;
const AccountParams = Type.Object({ accountId: Type.String() });

function windowsOf(body: ScheduleFormIn): string[] {
  return valuesOf(body.window)
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** The body the form stands for: `action=clear` clears the schedule (SPEC 4.5 rule 3). */
function bodyOf(body: ScheduleFormIn): ScheduleInputBody {
  if (body.action === 'clear') return { schedule: null };
  return { schedule: { windows: windowsOf(body).slice(0, SLOTS + 1) } };
}

/** The service's rule message for people: `/schedule/windows/1 ...` → `Window 2 ...`. */
function describe(err: ApiError): { message: string; index: number | null } {
  const m = /^\/schedule\/windows(?:\/(\d+))?\s*(.*)$/.exec(err.message);
  if (!m) return { message: err.message, index: null };
  if (m[1] === undefined) return { message: `Windows ${m[2] ?? ''}`.trim(), index: null };
  const index = Number(m[1]);
  return { message: `Window ${index + 1} ${m[2] ?? ''}`.trim(), index };
}

/** Four form slots holding `windows`, the rest empty. */
function slots(windows: readonly string[]): string[] {
  return Array.from({ length: SLOTS }, (_, i) => windows[i] ?? '');
}

interface Editor {
  heading: string;
  action: string;
  /** The override shown in the form, or null when there is none. */
  windows: string[] | null;
  effective: string[];
  source: string;
  timezone: string | null;
  inherits: string;
  account: { accountId: string; username: string; platform: string } | null;
  /** The company's approval reminder lead time (company schedule only). */
  leadMinutes: number | null;
}

function render(
  req: FastifyRequest,
  reply: FastifyReply,
  editor: Editor,
  form: { values: string[]; error: { message: string; index: number | null } | null },
  done: string | null,
) {
  const user = userOf(req);
  return page(req, reply, 'schedule.eta', editor.heading, {
    editor,
    values: slots(form.values),
    error: form.error,
    done,
    canEdit: user.role !== 'viewer',
    canSetLead: user.role === 'admin',
    leadChoices: APPROVAL_LEAD_CHOICES.map((m) => ({ minutes: m, words: leadWords(m) })),
  });
}

async function companyEditor(ctx: AppContext, companyId: string): Promise<Editor> {
  const [s, company] = await Promise.all([
    getCompanySchedule(ctx, companyId),
    getCompanyRow(ctx.db, companyId),
  ]);
  return {
    leadMinutes: company?.approval_lead_minutes ?? null,
    heading: 'Company schedule',
    action: `${BASE}/schedule`,
    windows: s.schedule?.windows ?? null,
    effective: s.schedule?.windows ?? ['08:00', '11:00', '14:00', '17:00'],
    source: s.source,
    timezone: null,
    inherits: 'the standard slots 08:00, 11:00, 14:00 and 17:00',
    account: null,
  };
}

async function accountEditor(
  ctx: AppContext,
  companyId: string,
  accountId: string,
): Promise<Editor> {
  try {
    const [s, account] = await Promise.all([
      getAccountSchedule(ctx, companyId, accountId),
      getAccount(ctx.db, ctx.clock, companyId, accountId),
    ]);
    return {
      leadMinutes: null,
      heading: `Schedule of @${account.username}`,
      action: `${BASE}/accounts/${encodeURIComponent(accountId)}/schedule`,
      windows: s.schedule?.windows ?? null,
      effective: s.effectiveSchedule.windows,
      source: s.source,
      timezone: s.timezone,
      inherits: s.companySchedule
        ? `the company schedule (${s.companySchedule.windows.join(', ')})`
        : 'the standard slots 08:00, 11:00, 14:00 and 17:00',
      account: {
        accountId: account.accountId,
        username: account.username,
        platform: account.platform,
      },
    };
  } catch (err) {
    // Another company's account reads exactly as an unknown one.
    if (err instanceof ApiError && err.code === 'account_not_found') {
      throw new ActionRefused('not_found', 'Not found.');
    }
    throw err;
  }
}

export function schedulePages(ctx: AppContext) {
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/schedule', async (req, reply) => {
      const editor = await companyEditor(ctx, userOf(req).companyId);
      const form = { values: editor.windows ?? [], error: null };
      return render(req, reply, editor, form, takeFlash(ctx, req, reply));
    });

    const accountSchedule = { schema: { params: AccountParams } };
    app.get('/accounts/:accountId/schedule', accountSchedule, async (req, reply) => {
      const { accountId } = req.params;
      const editor = await accountEditor(ctx, userOf(req).companyId, accountId);
      const form = { values: editor.windows ?? [], error: null };
      return render(req, reply, editor, form, takeFlash(ctx, req, reply));
    });

    const companyForm = { config: { role: 'editor' as const }, schema: { body: ScheduleForm } };
    app.post('/schedule', companyForm, async (req, reply) => {
      const user = userOf(req);
      const { body } = req;
      const input = bodyOf(body);
      try {
        await setCompanySchedule(ctx, user.companyId, input, actorOf(user));
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== 'invalid_request') throw err;
        const editor = await companyEditor(ctx, user.companyId);
        reply.code(400);
        return render(req, reply, editor, { values: windowsOf(body), error: describe(err) }, null);
      }
      const done = input.schedule ? 'Company schedule saved.' : 'Company schedule cleared.';
      setFlash(ctx, req, reply, done);
      return redirect(req, reply, `${BASE}/schedule`);
    });

    // How long before a waiting item's window its approvers are reminded (admins).
    const leadForm = {
      config: { role: 'admin' as const },
      schema: { body: Type.Object({ minutes: Type.Optional(Type.String({ maxLength: 10 })) }) },
    };
    app.post('/schedule/reminders', leadForm, async (req, reply) => {
      const user = userOf(req);
      const minutes = Number(req.body.minutes ?? '');
      if (!(APPROVAL_LEAD_CHOICES as readonly number[]).includes(minutes)) {
        throw new ActionRefused('invalid', 'Choose one of the listed reminder times.');
      }
      const changed = await setApprovalLead(
        ctx.db,
        ctx.clock,
        user.companyId,
        minutes,
        actorOf(user),
      );
      setFlash(
        ctx,
        req,
        reply,
        changed
          ? `Approvers are now reminded ${leadWords(minutes)} before a waiting post’s window.`
          : 'Nothing changed.',
      );
      return redirect(req, reply, `${BASE}/schedule`);
    });

    app.post(
      '/accounts/:accountId/schedule',
      { config: { role: 'editor' }, schema: { params: AccountParams, body: ScheduleForm } },
      async (req, reply) => {
        const user = userOf(req);
        const { accountId } = req.params;
        const { body } = req;
        const input = bodyOf(body);
        try {
          await setAccountSchedule(ctx, user.companyId, accountId, input, actorOf(user));
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          if (err.code === 'account_not_found') throw new ActionRefused('not_found', 'Not found.');
          if (err.code !== 'invalid_request') throw err;
          const editor = await accountEditor(ctx, user.companyId, accountId);
          reply.code(400);
          return render(
            req,
            reply,
            editor,
            { values: windowsOf(body), error: describe(err) },
            null,
          );
        }
        const done = input.schedule ? 'Account schedule saved.' : 'Account schedule cleared.';
        setFlash(ctx, req, reply, done);
        return redirect(req, reply, `${BASE}/accounts/${encodeURIComponent(accountId)}/schedule`);
      },
    );
  };
}
