// Outcomes: a post its worker reported failed, a claimed post never reported by its deadline
// (unconfirmed), an account its worker reported disconnected. Each is told in the transaction
// of the change that made it, so it is never lost nor told for a change that rolled back: to
// the company's admins and editors by mail and push, to the company's chat hooks that chose
// the kind, and for failures and disconnections to the operator side too (its chat hooks and
// the operators by mail). A mark per subject and occasion (the task's release, the account's
// report) makes each go out once, whichever process wrote the change.
import type { AppContext, Outcome, OutcomeNotices } from '../context.ts';
import type { DbOrTx } from '../db/types.ts';
import { findAccountsByIds } from '../modules/accounts/index.ts';
import { chatLink, chatText, type ChatMarkup } from '../modules/alerts/index.ts';
import { getCompany } from '../modules/companies/index.ts';
import { findTasks } from '../modules/items/index.ts';
import {
  accountDisconnectedMail,
  markNew,
  taskFailedMail,
  taskUnconfirmedMail,
  type MailTo,
} from '../modules/notify/index.ts';
import type { MailContent } from '../modules/outbox/index.ts';
import { operatorRecipients } from '../modules/operators/index.ts';
import { companyApprovers } from '../modules/users/index.ts';
import { fanOut, type Recipient } from './notice-fanout.ts';

const BOARD_PATH = '/operator/board';

/** One outcome with the words and links its notices need. */
interface Told {
  outcome: Outcome;
  companyName: string;
  title: string;
  body: string;
  /** The dashboard page to act on. */
  path: string;
  mail: (to: MailTo) => MailContent;
  chat: (url: string) => ChatMarkup;
}

/** The notices of outcomes, for the composition root to put in the context. */
export function outcomeNotices(ctx: AppContext): OutcomeNotices {
  return {
    tell: async (tx, outcomes, at) => {
      await tellOutcomes(ctx, tx, outcomes, at);
    },
  };
}

/** Writes the notices of the outcomes not told before, in `tx`; answers how many were new. */
export async function tellOutcomes(
  ctx: AppContext,
  tx: DbOrTx,
  outcomes: readonly Outcome[],
  now: Date,
): Promise<number> {
  if (outcomes.length === 0) return 0;
  const marked = await markNew(
    tx,
    outcomes.map((o) => ({
      subjectId: o.subjectId,
      kind: o.kind,
      occasion: o.occasion,
      companyId: o.companyId,
    })),
    now.toISOString(),
  );
  const fresh = new Set(marked.map((m) => `${m.kind}|${m.subjectId}|${m.occasion}`));
  const told = outcomes.filter((o) => fresh.has(`${o.kind}|${o.subjectId}|${o.occasion}`));
  if (told.length === 0) return 0;
  const described = await describe(tx, told);
  const operators = told.some((o) => o.kind !== 'task_unconfirmed')
    ? await operatorRecipients(tx)
    : [];
  // Read once per company of the batch: a deadline pass may fail hundreds of one company's.
  const people = new Map<string, Awaited<ReturnType<typeof companyApprovers>>>();
  for (const id of new Set(described.map((d) => d.outcome.companyId))) {
    people.set(id, await companyApprovers(tx, id));
  }
  for (const d of described) {
    await tell(ctx, tx, d, people.get(d.outcome.companyId) ?? [], operators, now);
  }
  return described.length;
}

async function describe(tx: DbOrTx, outcomes: readonly Outcome[]): Promise<Told[]> {
  const tasks = new Map(
    (
      await findTasks(
        tx,
        outcomes.filter((o) => o.kind !== 'account_disconnected').map((o) => o.subjectId),
      )
    ).map((t) => [t.id, t]),
  );
  const accounts = new Map(
    (
      await findAccountsByIds(
        tx,
        outcomes.filter((o) => o.kind === 'account_disconnected').map((o) => o.subjectId),
      )
    ).map((a) => [a.id, a]),
  );
  const names = new Map<string, string>();
  for (const id of new Set(outcomes.map((o) => o.companyId))) {
    names.set(id, (await getCompany(tx, id))?.name ?? 'your company');
  }
  const out: Told[] = [];
  for (const outcome of outcomes) {
    const companyName = names.get(outcome.companyId) ?? 'your company';
    if (outcome.kind === 'account_disconnected') {
      const a = accounts.get(outcome.subjectId);
      if (!a) continue;
      const facts = {
        companyName,
        username: a.username,
        platform: a.platform,
        reason: outcome.reason,
        at: outcome.occasion,
      };
      out.push({
        outcome,
        companyName,
        title: `@${a.username} is disconnected`,
        body: `Its worker reported @${a.username} disconnected; its posts wait.`,
        path: `/dashboard/accounts/${encodeURIComponent(a.id)}`,
        mail: (to) => accountDisconnectedMail(facts, to),
        chat: (url) =>
          chatText`*@${a.username} disconnected* (${companyName}, ${a.platform})${outcome.reason ? `: ${outcome.reason}` : ''}. ${chatLink(url, 'Open the account')}`,
      });
      continue;
    }
    const task = tasks.get(outcome.subjectId);
    if (!task) continue;
    const facts = {
      companyName,
      username: task.username,
      platform: task.platform,
      releasedAt: task.released_at as string,
      reason: outcome.reason,
    };
    const failed = outcome.kind === 'task_failed';
    const what = failed ? 'failed' : 'not confirmed';
    out.push({
      outcome,
      companyName,
      title: `Post for @${task.username} ${what}`,
      body: failed
        ? `The worker reported the post for @${task.username} failed${outcome.reason ? `: ${outcome.reason}` : ''}.`
        : `The post for @${task.username} was not reported by its deadline.`,
      path: `/dashboard/posts/${encodeURIComponent(task.post_id)}`,
      mail: (to) => (failed ? taskFailedMail(facts, to) : taskUnconfirmedMail(facts, to)),
      chat: (url) =>
        chatText`*Post for @${task.username} ${what}* (${companyName}, ${task.platform})${outcome.reason ? `: ${outcome.reason}` : ''}. ${chatLink(url, 'Open it')}`,
    });
  }
  return out;
}

async function tell(
  ctx: AppContext,
  tx: DbOrTx,
  d: Told,
  people: readonly Recipient[],
  operators: readonly Recipient[],
  now: Date,
): Promise<void> {
  const { kind, companyId, subjectId, occasion } = d.outcome;
  const key = `${kind}:${subjectId}@${occasion}`;
  const url = `${ctx.config.publicUrl}${d.path}`;
  await fanOut(
    ctx,
    tx,
    {
      audience: 'user',
      companyId,
      kind,
      urgent: false,
      dedupeKey: key,
      people,
      mail: (person, unsubscribeUrl) =>
        d.mail({
          email: person.email,
          timezone: person.timezone,
          url,
          unsubscribeUrl,
          operator: false,
        }),
      push: {
        notice: { title: d.title, body: d.body, url: d.path, tag: `${kind}-${subjectId}` },
        ttlSeconds: 24 * 3600,
      },
      chat: { companyId, kind, text: d.chat(url) },
    },
    now,
  );
  if (kind === 'task_unconfirmed') return;
  const boardUrl = `${ctx.config.publicUrl}${BOARD_PATH}`;
  await fanOut(
    ctx,
    tx,
    {
      audience: 'operator',
      companyId: null,
      kind,
      urgent: false,
      dedupeKey: key,
      people: operators,
      mail: (person, unsubscribeUrl) =>
        d.mail({
          email: person.email,
          timezone: person.timezone,
          url: boardUrl,
          unsubscribeUrl,
          operator: true,
        }),
      chat: { companyId: null, kind, text: d.chat(boardUrl) },
    },
    now,
  );
}
