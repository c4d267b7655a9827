// Chat alerts, pure: the alert kinds each side may choose, the text of a message in the
// Slack format ("mrkdwn": `&`, `<` and `>` escaped as entities, links as `<url|label>`),
// the checks of a hook's label, URL and kinds, and the masked form of a URL pages show.
// Slack, Mattermost and Rocket.Chat all take a POST of `{"text": "..."}` at an incoming
// webhook URL, so one format serves the three.
import {
  EMPTY_ALLOW_LIST,
  hostIsAllowed,
  judgeAddress,
  localHostReason,
  parseAddress,
  parseHopUrl,
  type AllowList,
} from '../../media/remote-fetch.ts';

/** What a company's hooks may receive, in the order the pages list them. */
export const COMPANY_ALERT_KINDS = [
  'approval_due',
  'approval_missed',
  'task_failed',
  'task_unconfirmed',
  'account_disconnected',
  'daily_summary',
] as const;
/** What the operator side's hooks may receive. */
export const OPERATOR_ALERT_KINDS = [
  'handoff_unclaimed',
  'task_failed',
  'account_disconnected',
] as const;

export type CompanyAlertKind = (typeof COMPANY_ALERT_KINDS)[number];
export type OperatorAlertKind = (typeof OPERATOR_ALERT_KINDS)[number];
export type AlertKind = CompanyAlertKind | OperatorAlertKind;

/** Each kind in the words the pages and the test message use. */
export const ALERT_KIND_LABELS: Readonly<Record<AlertKind, string>> = Object.freeze({
  approval_due: 'Approvals due soon',
  approval_missed: 'Approval will miss its window',
  task_failed: 'Post failed',
  task_unconfirmed: 'Post not confirmed',
  account_disconnected: 'Account disconnected',
  daily_summary: 'Daily summary',
  handoff_unclaimed: 'Task not claimed',
});

/** The outbox kind of the message the "Send a test" button writes. */
export const TEST_ALERT_KIND = 'chat_test';

/** Hooks one company may have, and the operator side too. */
export const MAX_HOOKS = 10;
export const MAX_LABEL = 80;
export const MAX_URL = 2048;
/** Characters of one alert's text: well under what every receiver accepts in a message. */
export const MAX_ALERT_TEXT = 3000;

/** The kinds a side may choose: a company's (`companyId` given) or the operator side's. */
export function kindsOf(companyId: string | null): readonly AlertKind[] {
  return companyId === null ? OPERATOR_ALERT_KINDS : COMPANY_ALERT_KINDS;
}

/** What a new hook receives unless told otherwise: every kind of its side but the summary. */
export function defaultKinds(companyId: string | null): AlertKind[] {
  return kindsOf(companyId).filter((k) => k !== 'daily_summary');
}

export function isAlertKind(kind: string): kind is AlertKind {
  return Object.hasOwn(ALERT_KIND_LABELS, kind);
}

export function kindLabel(kind: string): string {
  return isAlertKind(kind) ? ALERT_KIND_LABELS[kind] : kind.replace(/_/g, ' ');
}

const MARKUP = Symbol('chat markup');

/**
 * Text that is already in the receiver's format. Only chatText and chatLink make it (the
 * symbol it is keyed by stays in this file), so a plain string never passes for it and
 * every plain piece is escaped exactly once.
 */
export interface ChatMarkup {
  readonly [MARKUP]: string;
}

function markup(text: string): ChatMarkup {
  return Object.freeze({ [MARKUP]: text });
}

function isMarkup(value: unknown): value is ChatMarkup {
  return typeof value === 'object' && value !== null && MARKUP in value;
}

/** Plain text made safe for the Slack format: only `&`, `<` and `>` have a meaning there. */
export function chatEscape(plain: string): string {
  return plain.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A link as the Slack format writes it, `<url|label>`. Only an http(s) URL becomes a link;
 * anything else leaves the label alone. A `|` in the URL would end it early, so it is
 * percent-encoded.
 */
export function chatLink(url: string, label: string): ChatMarkup {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  const text = chatEscape(label.replace(/\s+/g, ' ').trim()) || chatEscape(url);
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    return markup(text);
  }
  return markup(`<${chatEscape(parsed.toString().replace(/\|/g, '%7C'))}|${text}>`);
}

/**
 * A message from a template: the literal parts and every value are escaped alike, except
 * values chatLink or chatText made, which are already in the format. Escaping leaves
 * `*bold*` and `_italic_` their meaning, so the literal parts may use them.
 *
 *   chatText`Approval of ${title} is due ${chatLink(url, 'Open it')}`
 */
export function chatText(parts: TemplateStringsArray, ...values: unknown[]): ChatMarkup {
  let out = '';
  parts.forEach((part, i) => {
    out += chatEscape(part);
    if (i < values.length) {
      const value = values[i];
      out += isMarkup(value) ? value[MARKUP] : chatEscape(String(value));
    }
  });
  return markup(out);
}

/** A message's text in the receiver's format: a plain string is escaped as a whole. */
export function chatMarkupOf(text: string | ChatMarkup): string {
  return isMarkup(text) ? text[MARKUP] : chatEscape(text);
}

/** The only form of a hook's URL pages show: its host and its last 4 characters. */
export function maskHookUrl(url: string): string {
  let host = '';
  try {
    host = new URL(url).host;
  } catch {
    host = '';
  }
  return `${host || 'unknown host'} …${url.slice(-4)}`;
}

/** Why a hook's form or an action on a hook was refused, by code. */
export type ChatHookCode =
  | 'label_required'
  | 'label_too_long'
  | 'url_required'
  | 'url_too_long'
  | 'url_invalid'
  | 'url_not_https'
  | 'url_private_address'
  | 'url_local_host'
  | 'kinds_required'
  | 'kind_unknown'
  | 'hook_limit_reached'
  | 'hook_not_found'
  | 'test_too_soon';

/** One refusal: the field it is about (null for the whole form), in words, with what to do. */
export interface ChatHookProblem {
  code: ChatHookCode;
  field: 'label' | 'url' | 'kinds' | null;
  message: string;
  hint: string;
}

export class ChatHookError extends Error {
  readonly problems: readonly ChatHookProblem[];
  constructor(problems: readonly ChatHookProblem[]) {
    super(problems.map((p) => p.message).join(' '));
    this.name = 'ChatHookError';
    this.problems = problems;
  }
  /** The code of the first problem (an action's refusal has only one). */
  get code(): ChatHookCode {
    return (this.problems[0] as ChatHookProblem).code;
  }
}

export function problem(
  code: ChatHookCode,
  field: ChatHookProblem['field'],
  message: string,
  hint = '',
): ChatHookProblem {
  return { code, field, message, hint };
}

const chars = (s: string) => [...s].length;

export function checkLabel(label: string): ChatHookProblem | null {
  if (label === '') {
    return problem(
      'label_required',
      'label',
      'Name: required.',
      'Give the hook a name you will recognise, such as “#marketing on Slack”.',
    );
  }
  if (chars(label) > MAX_LABEL) {
    return problem(
      'label_too_long',
      'label',
      `Name: at most ${MAX_LABEL} characters (this has ${chars(label)}).`,
      'Shorten the name; the channel’s name is usually enough.',
    );
  }
  return null;
}

/**
 * The URL as alerts will use it, by the rules of webhook endpoints: absolute http(s)
 * without credentials; https unless the operator allows the host (REMOTE_FETCH_ALLOW); an
 * address literal must be one the guarded client may reach. Names are resolved and judged
 * again at every send, so one that later points inside is refused then.
 */
export function checkHookUrl(
  text: string,
  allow: AllowList,
): { ok: true; url: string } | { ok: false; problem: ChatHookProblem } {
  const refuse = (code: ChatHookCode, message: string, hint: string) => ({
    ok: false as const,
    problem: problem(code, 'url', message, hint),
  });
  const where = 'Copy the incoming webhook URL from your chat app’s settings.';
  if (text === '') return refuse('url_required', 'Webhook URL: required.', where);
  if (chars(text) > MAX_URL) {
    return refuse(
      'url_too_long',
      `Webhook URL: at most ${MAX_URL} characters (this has ${chars(text)}).`,
      where,
    );
  }
  let url: URL;
  try {
    url = parseHopUrl(text, undefined, 0);
  } catch (err) {
    const why =
      err instanceof Error ? err.message.replace(/^sourceUrl /, '') : 'is not a valid absolute URL';
    return refuse(
      'url_invalid',
      `Webhook URL: ${why}.`,
      `${where} It starts with https://, such as https://hooks.slack.com/services/…`,
    );
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const literal = parseAddress(host);
  if (literal !== null && !judgeAddress(literal, false, allow).ok) {
    return refuse(
      'url_private_address',
      'Webhook URL: points to a private, loopback, link-local or reserved address.',
      'Use the public URL your chat app gave; an operator can allow a local address in REMOTE_FETCH_ALLOW.',
    );
  }
  const local = literal === null ? localHostReason(host) : null;
  if (local !== null && !hostIsAllowed(allow, host)) {
    return refuse(
      'url_local_host',
      `Webhook URL: the host “${host}” ${local}.`,
      'Use the public URL your chat app gave; an operator can allow a local host in REMOTE_FETCH_ALLOW.',
    );
  }
  const operatorAllowed =
    literal === null
      ? hostIsAllowed(allow, host)
      : !judgeAddress(literal, false, EMPTY_ALLOW_LIST).ok;
  if (url.protocol !== 'https:' && !operatorAllowed) {
    return refuse(
      'url_not_https',
      'Webhook URL: must use https.',
      'The URL carries the chat app’s secret, so it is only sent over TLS.',
    );
  }
  return { ok: true, url: url.toString() };
}

/** The kinds chosen, in the catalog's order, or why they cannot be. */
export function checkKinds(
  companyId: string | null,
  chosen: readonly string[],
): { ok: true; kinds: AlertKind[] } | { ok: false; problem: ChatHookProblem } {
  const allowed = kindsOf(companyId);
  const unknown = chosen.filter((k) => !(allowed as readonly string[]).includes(k));
  if (unknown.length > 0) {
    return {
      ok: false,
      problem: problem(
        'kind_unknown',
        'kinds',
        `Alerts: ${unknown.map((k) => `“${k.slice(0, 40)}”`).join(', ')} ${unknown.length === 1 ? 'is not a kind' : 'are not kinds'} this hook may receive.`,
        'Choose alerts from the list.',
      ),
    };
  }
  const kinds = allowed.filter((k) => chosen.includes(k));
  if (kinds.length === 0) {
    return {
      ok: false,
      problem: problem(
        'kinds_required',
        'kinds',
        'Alerts: choose at least one.',
        'A hook with no alerts would receive nothing; remove it instead.',
      ),
    };
  }
  return { ok: true, kinds };
}

/** The words of kinds, in their order: "Post failed, Account disconnected". */
export function kindWords(kinds: readonly string[]): string {
  return kinds.map(kindLabel).join(', ');
}
