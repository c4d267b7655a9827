// The outbox pages of the dashboard (a company's messages) and the console (every
// message) share their paging: a filter by status and keyset pages, newest first. The app
// gives what loads a page of its messages; the kit makes the filter links and the next
// page's address.
import { Type } from 'typebox';

export const OUTBOX_PAGE_SIZE = 50;

// `before` is `createdAt|id` of the last message shown: a position, not a secret.
export const OutboxQuery = Type.Object({
  status: Type.Optional(Type.String({ maxLength: 20 })),
  before: Type.Optional(Type.String({ maxLength: 200 })),
});

/** The statuses a message can be in, with the filter's words for each. */
const STATUS_LABELS = { waiting: 'Waiting', sent: 'Sent', failed: 'Failed' } as const;
export type ListedStatus = keyof typeof STATUS_LABELS;

export interface StatusPage<R> {
  rows: R[];
  status: ListedStatus | null;
  /** The filter links: all, then every status. */
  filters: { label: string; href: string; current: boolean }[];
  next: string | null;
  paged: boolean;
}

function statusOf(value: string | undefined): ListedStatus | null {
  return value !== undefined && Object.hasOwn(STATUS_LABELS, value)
    ? (value as ListedStatus)
    : null;
}

/** A page of the list at `path`: `load` reads up to `limit` rows of a status (or all) before a position. */
export async function statusPage<R extends { createdAt: string; id: string }>(
  path: string,
  query: { status?: string; before?: string },
  load: (
    status: ListedStatus | null,
    before: readonly [string, string] | null,
    limit: number,
  ) => Promise<R[]>,
): Promise<StatusPage<R>> {
  const status = statusOf(query.status);
  const parts = query.before?.split('|') ?? [];
  const before =
    parts.length === 2 && parts[0] && parts[1] ? ([parts[0], parts[1]] as const) : null;
  const loaded = await load(status, before, OUTBOX_PAGE_SIZE + 1);
  const rows = loaded.slice(0, OUTBOX_PAGE_SIZE);
  const last = rows[rows.length - 1];
  const filter = status ? `status=${status}&` : '';
  return {
    rows,
    status,
    filters: [
      { label: 'All', href: path, current: status === null },
      ...(Object.keys(STATUS_LABELS) as ListedStatus[]).map((s) => ({
        label: STATUS_LABELS[s],
        href: `${path}?status=${s}`,
        current: status === s,
      })),
    ],
    next:
      loaded.length > OUTBOX_PAGE_SIZE && last
        ? `${path}?${filter}before=${encodeURIComponent(`${last.createdAt}|${last.id}`)}`
        : null,
    paged: before !== null,
  };
}
