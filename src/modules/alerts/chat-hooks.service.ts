// Chat alert hooks of a company, or of the operator side (companyId null): added with a
// label, an incoming-webhook URL and the alert kinds they receive; their kinds and label
// changed; removed. The URL is sealed at rest and shown only masked. Each change made by a
// person is logged in its transaction: a company's in its activity log, the operator side's
// in the operator log.
import type { AppContext } from '../../context.ts';
import type { ChatHooksTable, DbOrTx } from '../../db/types.ts';
import { newId } from '../../lib/ids.ts';
import { recordActivity, type Actor } from '../activity/index.ts';
import { recordOperatorAction, type OperatorActor } from '../operators/index.ts';
import {
  ChatHookError,
  MAX_HOOKS,
  checkHookUrl,
  checkKinds,
  checkLabel,
  defaultKinds,
  kindLabel,
  kindWords,
  maskHookUrl,
  problem,
  type AlertKind,
  type ChatHookProblem,
} from './chat-alerts.rules.ts';
import * as repo from './chat-hooks.repository.ts';

/** Whose hooks, and who acts: a company's user, or an operator for the operator side. */
export type HookOwner =
  { companyId: string; actor: Actor } | { companyId: null; actor: OperatorActor };

/** A hook as pages show it: never its URL, only the masked form. */
export interface ChatHook {
  hookId: string;
  companyId: string | null;
  label: string;
  /** Host and last 4 characters: "hooks.slack.com …x9Qa". */
  urlHint: string;
  kinds: AlertKind[];
  kindLabels: string[];
  /** `new`: nothing delivered yet; `ok`: the last delivery worked; `failing`: the URL is gone. */
  state: 'new' | 'ok' | 'failing';
  failingSince: string | null;
  lastError: string | null;
  lastSuccessAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function hookOf(row: ChatHooksTable): ChatHook {
  const kinds = JSON.parse(row.kinds) as AlertKind[];
  return {
    hookId: row.id,
    companyId: row.company_id,
    label: row.label,
    urlHint: row.url_hint,
    kinds,
    kindLabels: kinds.map(kindLabel),
    state: row.failing_since ? 'failing' : row.last_success_at ? 'ok' : 'new',
    failingSince: row.failing_since,
    lastError: row.last_error,
    lastSuccessAt: row.last_success_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function notFound(): ChatHookError {
  return new ChatHookError([
    problem(
      'hook_not_found',
      null,
      'This chat alert hook was not found.',
      'It may have been removed; the list shows the hooks there are.',
    ),
  ]);
}

/** The side's hook, or `hook_not_found` (another company's, or another side's, too). */
export async function findHookOrThrow(
  db: DbOrTx,
  companyId: string | null,
  hookId: string,
): Promise<ChatHooksTable> {
  const row = await repo.findHook(db, companyId, hookId);
  if (!row) throw notFound();
  return row;
}

/** Logs a change by a person in its transaction: the label and masked URL, never the URL. */
async function note(
  tx: DbOrTx,
  owner: HookOwner,
  action: 'chat_hook.added' | 'chat_hook.changed' | 'chat_hook.removed' | 'chat_hook.test_sent',
  row: Pick<ChatHooksTable, 'id' | 'label' | 'url_hint' | 'kinds'>,
  now: Date,
): Promise<void> {
  const kinds = JSON.parse(row.kinds) as string[];
  if (owner.companyId === null) {
    await recordOperatorAction(
      tx,
      owner.actor,
      {
        action,
        target: row.id,
        details: { label: row.label, url: row.url_hint, kinds: kindWords(kinds) },
      },
      now,
    );
  } else {
    await recordActivity(
      tx,
      owner.companyId,
      owner.actor,
      { action, target: `“${row.label}”`, detail: `${row.url_hint}; alerts: ${kindWords(kinds)}` },
      now,
    );
  }
}

/** The side's hooks, oldest first. */
export async function listChatHooks(db: DbOrTx, companyId: string | null): Promise<ChatHook[]> {
  return (await repo.listHooks(db, companyId)).map(hookOf);
}

export async function getChatHook(
  db: DbOrTx,
  companyId: string | null,
  hookId: string,
): Promise<ChatHook> {
  return hookOf(await findHookOrThrow(db, companyId, hookId));
}

export interface NewChatHook {
  label: string;
  url: string;
  /** Every kind of the side but the daily summary when left out. */
  kinds?: readonly string[];
}

/** The label and kinds checked together: every problem at once. */
function checkParts(
  companyId: string | null,
  label: string,
  kinds: readonly string[],
  problems: ChatHookProblem[],
): AlertKind[] {
  const badLabel = checkLabel(label);
  if (badLabel) problems.push(badLabel);
  const checked = checkKinds(companyId, kinds);
  if (!checked.ok) {
    problems.push(checked.problem);
    return [];
  }
  return checked.kinds;
}

/**
 * Adds a hook. Refuses with every problem of the form at once (ChatHookError), or with
 * `hook_limit_reached` when the side has MAX_HOOKS already.
 */
export async function addChatHook(
  ctx: AppContext,
  owner: HookOwner,
  input: NewChatHook,
): Promise<ChatHook> {
  const label = input.label.trim();
  const problems: ChatHookProblem[] = [];
  const badLabel = checkLabel(label);
  if (badLabel) problems.push(badLabel);
  const url = checkHookUrl(input.url.trim(), ctx.config.remoteFetchAllow);
  if (!url.ok) problems.push(url.problem);
  const chosen = checkKinds(owner.companyId, input.kinds ?? defaultKinds(owner.companyId));
  if (!chosen.ok) problems.push(chosen.problem);
  if (problems.length > 0 || !url.ok || !chosen.ok) throw new ChatHookError(problems);

  const now = ctx.clock.now();
  const at = now.toISOString();
  const row: ChatHooksTable = {
    id: newId('chk', now.getTime()),
    company_id: owner.companyId,
    label,
    url_sealed: ctx.sealer.seal(url.url),
    url_hint: maskHookUrl(url.url),
    kinds: JSON.stringify(chosen.kinds),
    failing_since: null,
    last_error: null,
    last_success_at: null,
    created_at: at,
    updated_at: at,
  };
  await ctx.db.transaction().execute(async (tx) => {
    if ((await repo.countHooks(tx, owner.companyId)) >= MAX_HOOKS) {
      throw new ChatHookError([
        problem(
          'hook_limit_reached',
          null,
          `There are already ${MAX_HOOKS} chat alert hooks here, the most there may be.`,
          'Remove a hook you no longer use, or send more kinds of alerts to one of them.',
        ),
      ]);
    }
    await repo.insertHook(tx, row);
    await note(tx, owner, 'chat_hook.added', row, now);
  });
  return hookOf(row);
}

/** Changes a hook's label and the kinds it receives; its URL stays (remove and add for another). */
export async function changeChatHook(
  ctx: AppContext,
  owner: HookOwner,
  hookId: string,
  input: { label: string; kinds: readonly string[] },
): Promise<ChatHook> {
  const label = input.label.trim();
  const problems: ChatHookProblem[] = [];
  const kinds = checkParts(owner.companyId, label, input.kinds, problems);
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (tx) => {
    const row = await findHookOrThrow(tx, owner.companyId, hookId);
    if (problems.length > 0) throw new ChatHookError(problems);
    const changed = { ...row, label, kinds: JSON.stringify(kinds), updated_at: now.toISOString() };
    await repo.updateHook(tx, owner.companyId, hookId, {
      label: changed.label,
      kinds: changed.kinds,
      updated_at: changed.updated_at,
    });
    await note(tx, owner, 'chat_hook.changed', changed, now);
    return hookOf(changed);
  });
}

/** Removes a hook; alerts still waiting for it fail when their turn comes. */
export async function removeChatHook(
  ctx: AppContext,
  owner: HookOwner,
  hookId: string,
): Promise<ChatHook> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (tx) => {
    const row = await findHookOrThrow(tx, owner.companyId, hookId);
    if (!(await repo.deleteHook(tx, owner.companyId, hookId))) throw notFound();
    await note(tx, owner, 'chat_hook.removed', row, now);
    return hookOf(row);
  });
}

/**
 * How the side's hooks are named as recipients of outbox rows: "#ops (hooks.slack.com …x9Qa)",
 * by hook id; hooks since removed are left out.
 */
export async function chatHookNames(
  db: DbOrTx,
  companyId: string | null,
  hookIds: readonly string[],
): Promise<Map<string, string>> {
  const rows = await repo.hooksWithIds(db, companyId, [...new Set(hookIds)]);
  return new Map(rows.map((r) => [r.id, `${r.label} (${r.url_hint})`]));
}

export { note as noteHookChange };
