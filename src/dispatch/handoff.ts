// Hand-off confirmed: a released task is the worker's to claim, and a claimed one to report.
// A task nobody claimed within HANDOFF_UNCLAIMED_MINUTES is pushed to its worker again, and
// the operator side is told (its chat hooks that chose the kind, the operators by mail); the
// console's board marks it too. A claimed task whose report deadline is within
// REPORT_REMINDER_MINUTES reminds its worker once. Each is marked per task in the same
// transaction as its messages (notice_marks), so it goes out once whichever dispatcher runs
// the pass. Runs with the dispatcher, at most once a minute.
import type { AppContext } from '../context.ts';
import type { DbOrTx } from '../db/types.ts';
import { chatLink, chatText } from '../modules/alerts/index.ts';
import { openTasksIn, type OpenTaskRow } from '../modules/items/index.ts';
import { handoffUnclaimedMail, markNew } from '../modules/notify/index.ts';
import { operatorRecipients } from '../modules/operators/index.ts';
import { fanOut } from './notice-fanout.ts';

/** How often a dispatcher runs the pass. */
export const HANDOFF_PASS_MS = 60_000;
/** Tasks read and told per transaction. */
const PAGE = 500;
/** Where the workers' app shows a task, and the console its board. */
const TASK_PATH = '/dashboard/worker/tasks/';
const BOARD_PATH = '/operator/board';

export interface HandoffResult {
  /** Unclaimed tasks newly pushed again and told to the operator side. */
  unclaimed: number;
  /** Claimed tasks whose worker was newly reminded of the report deadline. */
  reportDue: number;
}

const lastPass = new WeakMap<AppContext, number>();

/** Runs the pass unless this process ran it within the last minute. */
export async function checkHandoffsNow(ctx: AppContext, now: Date): Promise<HandoffResult | null> {
  const last = lastPass.get(ctx);
  if (last !== undefined && now.getTime() - last < HANDOFF_PASS_MS && now.getTime() >= last) {
    return null;
  }
  lastPass.set(ctx, now.getTime());
  return checkHandoffs(ctx, now);
}

function clockTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

export async function checkHandoffs(ctx: AppContext, now: Date): Promise<HandoffResult> {
  const t = now.getTime();
  const timeout = ctx.config.taskReportTimeoutMs;
  const result: HandoffResult = { unclaimed: 0, reportDue: 0 };
  // Unclaimed: released at least the hand-off time ago, and not yet failed for it.
  await eachPage(
    ctx,
    {
      claimed: false,
      from: new Date(t - timeout).toISOString(),
      to: new Date(t - ctx.config.handoffUnclaimedMs).toISOString(),
    },
    async (tx, rows) => {
      result.unclaimed += await tellUnclaimed(ctx, tx, rows, now);
    },
  );
  // Claimed: the deadline (claim + timeout) is within the reminder time and not passed.
  await eachPage(
    ctx,
    {
      claimed: true,
      from: new Date(t - timeout).toISOString(),
      to: new Date(t - timeout + ctx.config.reportReminderMs).toISOString(),
    },
    async (tx, rows) => {
      result.reportDue += await remindReports(ctx, tx, rows, now);
    },
  );
  return result;
}

async function eachPage(
  ctx: AppContext,
  range: { claimed: boolean; from: string; to: string },
  tell: (tx: DbOrTx, rows: OpenTaskRow[]) => Promise<void>,
): Promise<void> {
  let after: string | undefined;
  for (;;) {
    const rows = await openTasksIn(ctx.db, {
      ...range,
      limit: PAGE,
      ...(after === undefined ? {} : { after }),
    });
    if (rows.length > 0) await ctx.db.transaction().execute((tx) => tell(tx, rows));
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]?.id;
  }
}

/** The rows not told about before for `kind`, each marked now. */
async function fresh(
  tx: DbOrTx,
  rows: readonly OpenTaskRow[],
  kind: string,
  occasion: (r: OpenTaskRow) => string,
  now: Date,
): Promise<OpenTaskRow[]> {
  const marked = await markNew(
    tx,
    rows.map((r) => ({ subjectId: r.id, kind, occasion: occasion(r), companyId: r.company_id })),
    now.toISOString(),
  );
  const ids = new Set(marked.map((m) => m.subjectId));
  return rows.filter((r) => ids.has(r.id));
}

async function tellUnclaimed(
  ctx: AppContext,
  tx: DbOrTx,
  rows: readonly OpenTaskRow[],
  now: Date,
): Promise<number> {
  const kind = 'handoff_unclaimed';
  const told = await fresh(tx, rows, kind, (r) => r.released_at, now);
  if (told.length === 0) return 0;
  const operators = await operatorRecipients(tx);
  const boardUrl = `${ctx.config.publicUrl}${BOARD_PATH}`;
  const timeout = ctx.config.taskReportTimeoutMs;
  for (const task of told) {
    const minutes = Math.floor((now.getTime() - Date.parse(task.released_at)) / 60_000);
    const reportBy = new Date(Date.parse(task.released_at) + timeout).toISOString();
    const key = `${kind}:${task.id}`;
    if (task.worker_id) {
      await fanOut(
        ctx,
        tx,
        {
          audience: 'worker',
          companyId: task.company_id,
          kind,
          urgent: true,
          dedupeKey: key,
          people: [{ id: task.worker_id, email: '', timezone: task.timezone }],
          push: {
            notice: {
              title: `Task for @${task.username} waits`,
              body: `Task for @${task.username} is not claimed yet: claim it, report by ${clockTime(reportBy, task.timezone)}`,
              url: `${TASK_PATH}${encodeURIComponent(task.id)}`,
              tag: `task-${task.id}`,
            },
            ttlSeconds: Math.max(60, (Date.parse(reportBy) - now.getTime()) / 1000),
          },
        },
        now,
      );
    }
    const facts = {
      companyName: task.company_name,
      username: task.username,
      platform: task.platform,
      releasedAt: task.released_at,
      reason: null,
    };
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
          handoffUnclaimedMail(facts, minutes, {
            email: person.email,
            timezone: person.timezone,
            url: boardUrl,
            unsubscribeUrl,
          }),
        chat: {
          companyId: null,
          kind,
          text: chatText`*Task for @${task.username} not claimed for ${minutes} min* (${task.company_name}, ${task.platform}). ${chatLink(boardUrl, 'Open the board')}`,
        },
      },
      now,
    );
  }
  return told.length;
}

async function remindReports(
  ctx: AppContext,
  tx: DbOrTx,
  rows: readonly OpenTaskRow[],
  now: Date,
): Promise<number> {
  const kind = 'report_due';
  const told = await fresh(tx, rows, kind, (r) => r.claimed_at ?? r.released_at, now);
  for (const task of told) {
    const worker = task.claimed_by ?? task.worker_id;
    if (!worker) continue;
    const reportBy = new Date(
      Date.parse(task.claimed_at ?? task.released_at) + ctx.config.taskReportTimeoutMs,
    ).toISOString();
    await fanOut(
      ctx,
      tx,
      {
        audience: 'worker',
        companyId: task.company_id,
        kind,
        urgent: true,
        dedupeKey: `${kind}:${task.id}`,
        people: [{ id: worker, email: '', timezone: task.timezone }],
        push: {
          notice: {
            title: `Report @${task.username} by ${clockTime(reportBy, task.timezone)}`,
            body: `Report the task for @${task.username} by ${clockTime(reportBy, task.timezone)}, posted or failed.`,
            url: `${TASK_PATH}${encodeURIComponent(task.id)}`,
            tag: `task-${task.id}`,
          },
          ttlSeconds: Math.max(60, (Date.parse(reportBy) - now.getTime()) / 1000),
        },
      },
      now,
    );
  }
  return told.length;
}
