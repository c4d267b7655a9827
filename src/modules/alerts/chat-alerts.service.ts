// Chat alerts as outbox rows (channel `chat`, recipient the hook's id): written in the
// transaction of what caused them, one per hook of the side that chose the alert's kind,
// and sent by the chat loop (chat-sender.service.ts). A hook whose receiver said its URL is
// gone gets no alerts until a test reaches it again; a test goes to any hook.
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/types.ts';
import { getCompany } from '../companies/index.ts';
import { enqueueMail, enqueueMany, type OutgoingMail } from '../outbox/index.ts';
import {
  ChatHookError,
  MAX_ALERT_TEXT,
  TEST_ALERT_KIND,
  chatMarkupOf,
  chatText,
  kindLabel,
  kindWords,
  kindsOf,
  problem,
  type AlertKind,
  type ChatMarkup,
} from './chat-alerts.rules.ts';
import * as repo from './chat-hooks.repository.ts';
import {
  findHookOrThrow,
  hookOf,
  noteHookChange,
  type ChatHook,
  type HookOwner,
} from './chat-hooks.service.ts';

export interface ChatAlert {
  /** The company the alert concerns; null for the operator side's. */
  companyId: string | null;
  kind: AlertKind;
  /** A plain string (escaped whole), or markup from chatText and chatLink. */
  text: string | ChatMarkup;
  /** At most one message per key and hook, ever. */
  dedupeKey: string;
}

/**
 * Text cut to MAX_ALERT_TEXT characters, never inside a link or an entity, so a long
 * summary still reads as the format means it.
 */
export function clipChatText(text: string): string {
  if (text.length <= MAX_ALERT_TEXT) return text;
  let cut = text.slice(0, MAX_ALERT_TEXT - 1);
  const open = cut.lastIndexOf('<');
  if (open > cut.lastIndexOf('>')) cut = cut.slice(0, open);
  const amp = cut.lastIndexOf('&');
  if (amp > cut.lastIndexOf(';')) cut = cut.slice(0, amp);
  return `${cut}…`;
}

/**
 * Writes one outbox row per hook of the alert's side that chose its kind (and is not
 * failing), in the caller's transaction. Answers how many were written: none when no hook
 * wants the kind, or the key was used before.
 */
export async function queueChatAlert(tx: DbOrTx, alert: ChatAlert, at: Date): Promise<number> {
  if (!kindsOf(alert.companyId).includes(alert.kind)) {
    throw new RangeError(
      `chat alert kind ${alert.kind} is not one the ${alert.companyId === null ? 'operator side' : 'company side'} has`,
    );
  }
  const hooks = (await repo.listHooks(tx, alert.companyId)).filter(
    (h) => h.failing_since === null && (JSON.parse(h.kinds) as string[]).includes(alert.kind),
  );
  if (hooks.length === 0) return 0;
  const text = clipChatText(chatMarkupOf(alert.text));
  const rows: OutgoingMail[] = hooks.map((h) => ({
    channel: 'chat',
    companyId: alert.companyId,
    kind: alert.kind,
    to: h.id,
    subject: kindLabel(alert.kind),
    text,
    dedupeKey: `chat:${alert.dedupeKey}:${h.id}`,
  }));
  return enqueueMany(tx, rows, at);
}

/** Tests one hook may be sent per minute. */
const TEST_WINDOW_MS = 60_000;

/**
 * Writes a test message to one hook of the side, naming the company and the kinds it will
 * receive; logged like a change. At most one per hook and minute (`test_too_soon`).
 */
export async function sendTestAlert(
  ctx: AppContext,
  owner: HookOwner,
  hookId: string,
): Promise<ChatHook> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (tx) => {
    const row = await findHookOrThrow(tx, owner.companyId, hookId);
    const who =
      owner.companyId === null
        ? 'the operator side'
        : ((await getCompany(tx, owner.companyId))?.name ?? 'your company');
    const kinds = JSON.parse(row.kinds) as string[];
    const text = chatText`Test alert from Slotline for ${who}: alerts of kinds ${kindWords(kinds)} will arrive here.`;
    const id = await enqueueMail(
      tx,
      {
        channel: 'chat',
        companyId: owner.companyId,
        kind: TEST_ALERT_KIND,
        to: row.id,
        subject: 'Test alert',
        text: chatMarkupOf(text),
        dedupeKey: `chat_test:${row.id}:${Math.floor(now.getTime() / TEST_WINDOW_MS)}`,
      },
      now,
    );
    if (id === null) {
      throw new ChatHookError([
        problem(
          'test_too_soon',
          null,
          `A test was sent to “${row.label}” less than a minute ago.`,
          'Wait a minute before sending another; the outbox shows whether the last one arrived.',
        ),
      ]);
    }
    await noteHookChange(tx, owner, 'chat_hook.test_sent', row, now);
    return hookOf(row);
  });
}

/** The companies with a hook that would receive an alert of `kind` now. */
export function companiesWantingAlert(db: DbOrTx, kind: AlertKind): Promise<string[]> {
  return repo.companiesWithKind(db, kind);
}
