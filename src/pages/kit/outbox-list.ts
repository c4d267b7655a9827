// The outbox pages of the dashboard (a company's messages) and the console (every
// message) share their paging: a filter by channel, a filter by status and keyset pages,
// newest first. The app gives what loads a page of its messages; the kit makes the filter
// links (each keeping the other filter) and the next page's address.
//
// The default view is mail and chat, without phone pushes: a release pass writes one push
// per device of every released task's worker, so on a busy day pushes would outnumber
// everything else many times over and bury the invitations, sign-in links and alerts a
// person opens this page to find ("did my invitation go out?"). Pushes are one link away
// ("Phone push", or "All channels" to see everything in the order it was written). An
// unknown channel or status is ignored, as the status filter always did: the page shows
// the default view rather than an error for a stale or hand-edited link.
import { Type } from 'typebox';

export const OUTBOX_PAGE_SIZE = 50;

// `before` is `createdAt|id` of the last message shown: a position, not a secret.
export const OutboxQuery = Type.Object({
  status: Type.Optional(Type.String({ maxLength: 20 })),
  channel: Type.Optional(Type.String({ maxLength: 20 })),
  before: Type.Optional(Type.String({ maxLength: 200 })),
});

/** The statuses a message can be in, with the filter's words for each. */
const STATUS_LABELS = { waiting: 'Waiting', sent: 'Sent', failed: 'Failed' } as const;
export type ListedStatus = keyof typeof STATUS_LABELS;

/** The outbox's channels (as modules/outbox names them). */
export type ListedChannel = 'email' | 'push' | 'chat';

/** The channel views, the default (no `channel` in the address) first. */
const CHANNEL_VIEWS = {
  default: { label: 'Mail and chat', channels: ['email', 'chat'] },
  email: { label: 'Email', channels: ['email'] },
  push: { label: 'Phone push', channels: ['push'] },
  chat: { label: 'Chat', channels: ['chat'] },
  all: { label: 'All channels', channels: ['email', 'push', 'chat'] },
} as const satisfies Record<string, { label: string; channels: readonly ListedChannel[] }>;
export type ChannelView = keyof typeof CHANNEL_VIEWS;

interface FilterLink {
  label: string;
  href: string;
  current: boolean;
}

export interface StatusPage<R> {
  rows: R[];
  status: ListedStatus | null;
  /** The channel view shown, `default` when none was asked for. */
  channel: ChannelView;
  /** The channels of that view. */
  channels: readonly ListedChannel[];
  /** The channel links: the default view, then every other one. */
  channelFilters: FilterLink[];
  /** The filter links: all, then every status. */
  filters: FilterLink[];
  next: string | null;
  paged: boolean;
}

function statusOf(value: string | undefined): ListedStatus | null {
  return value !== undefined && Object.hasOwn(STATUS_LABELS, value)
    ? (value as ListedStatus)
    : null;
}

function channelOf(value: string | undefined): ChannelView {
  return value !== undefined && value !== 'default' && Object.hasOwn(CHANNEL_VIEWS, value)
    ? (value as ChannelView)
    : 'default';
}

function hrefOf(
  path: string,
  status: ListedStatus | null,
  channel: ChannelView,
  before?: string,
): string {
  const params = [
    ...(channel !== 'default' ? [`channel=${channel}`] : []),
    ...(status ? [`status=${status}`] : []),
    ...(before !== undefined ? [`before=${encodeURIComponent(before)}`] : []),
  ];
  return params.length ? `${path}?${params.join('&')}` : path;
}

/**
 * A page of the list at `path`: `load` reads up to `limit` rows of a status (or all) and
 * of some channels before a position.
 */
export async function statusPage<R extends { createdAt: string; id: string }>(
  path: string,
  query: { status?: string; channel?: string; before?: string },
  load: (
    status: ListedStatus | null,
    channels: readonly ListedChannel[],
    before: readonly [string, string] | null,
    limit: number,
  ) => Promise<R[]>,
): Promise<StatusPage<R>> {
  const status = statusOf(query.status);
  const channel = channelOf(query.channel);
  const channels = CHANNEL_VIEWS[channel].channels;
  const parts = query.before?.split('|') ?? [];
  const before =
    parts.length === 2 && parts[0] && parts[1] ? ([parts[0], parts[1]] as const) : null;
  const loaded = await load(status, channels, before, OUTBOX_PAGE_SIZE + 1);
  const rows = loaded.slice(0, OUTBOX_PAGE_SIZE);
  const last = rows[rows.length - 1];
  return {
    rows,
    status,
    channel,
    channels,
    channelFilters: (Object.keys(CHANNEL_VIEWS) as ChannelView[]).map((c) => ({
      label: CHANNEL_VIEWS[c].label,
      href: hrefOf(path, status, c),
      current: channel === c,
    })),
    filters: [
      { label: 'All', href: hrefOf(path, null, channel), current: status === null },
      ...(Object.keys(STATUS_LABELS) as ListedStatus[]).map((s) => ({
        label: STATUS_LABELS[s],
        href: hrefOf(path, s, channel),
        current: status === s,
      })),
    ],
    next:
      loaded.length > OUTBOX_PAGE_SIZE && last
        ? hrefOf(path, status, channel, `${last.createdAt}|${last.id}`)
        : null,
    paged: before !== null,
  };
}

/** Whose device a push went to, as the outbox module gives it. */
interface PushTargetOf {
  audience: 'worker' | 'user';
  ownerId: string;
  host: string;
}

/** The owners a page's pushes went to: workers' and company users' ids, each set once. */
export function pushOwners(rows: readonly { push: PushTargetOf | null }[]): {
  workers: string[];
  users: string[];
} {
  const workers = new Set<string>();
  const users = new Set<string>();
  for (const { push } of rows) {
    if (push) (push.audience === 'worker' ? workers : users).add(push.ownerId);
  }
  return { workers: [...workers], users: [...users] };
}

/**
 * The "To" of a push: its owner by name (a worker) or email (a company user), never an id,
 * and the device by its push service's host, never the endpoint (a capability).
 */
export function pushRecipient(
  push: PushTargetOf | null,
  names: { workers: ReadonlyMap<string, string>; users: ReadonlyMap<string, string> },
): string {
  if (!push) return 'a device';
  const owner =
    push.audience === 'worker'
      ? (names.workers.get(push.ownerId) ?? 'a worker since removed')
      : (names.users.get(push.ownerId) ?? 'a person since removed');
  return `${owner}, device at ${push.host}`;
}
