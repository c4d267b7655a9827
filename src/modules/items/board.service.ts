// The fulfilment board (operator console): what needs a person now, across companies, by
// company or by worker. Released tasks nobody claimed and claimed ones, each with its report
// deadline; unconfirmed and failed ones released in the last days.
import type { DbOrTx } from '../../db/types.ts';
import * as board from './board.repository.ts';
import type { BoardFilter, BoardRow, BoardSection } from './board.repository.ts';
import { UNCONFIRMED_REASON } from './released-items.state.ts';

export type { BoardFilter, BoardSection };

/** A claimed task is "due soon" this long before its report deadline. */
export const DUE_SOON_MS = 30 * 60_000;

export interface BoardTask {
  itemId: string;
  postId: string;
  companyId: string;
  companyName: string;
  accountId: string;
  username: string;
  platform: string;
  /** The worker operating the account now. */
  workerId: string | null;
  workerName: string | null;
  /** The worker that claimed the task, when another than the account's now. */
  claimedBy: string | null;
  releasedAt: string;
  claimedAt: string | null;
  /** Open tasks: when the report is due (from the claim, or from the release unclaimed). */
  reportBy: string | null;
  overdue: boolean;
  dueSoon: boolean;
  /**
   * Unclaimed tasks past the hand-off time (HANDOFF_UNCLAIMED_MINUTES): whole minutes since
   * release; null otherwise.
   */
  unclaimedMinutes: number | null;
  /** Failed tasks: when they failed, and why. */
  failedAt: string | null;
  failureReason: string | null;
  caption: string | null;
}

export type FulfilmentBoard = Record<BoardSection, { count: number; tasks: BoardTask[] }>;

const SECTIONS: BoardSection[] = ['unclaimed', 'claimed', 'unconfirmed', 'failed'];

function taskOf(
  row: BoardRow,
  open: boolean,
  now: number,
  timeoutMs: number,
  handoffMs: number | null,
): BoardTask {
  const from = Date.parse(row.claimed_at ?? row.released_at);
  const reportBy = open ? from + timeoutMs : null;
  const waited = now - Date.parse(row.released_at);
  const unclaimed = open && row.claimed_at === null && handoffMs !== null && waited >= handoffMs;
  return {
    itemId: row.id,
    postId: row.post_id,
    companyId: row.company_id,
    companyName: row.company_name,
    accountId: row.account_id,
    username: row.username,
    platform: row.platform,
    workerId: row.worker_id,
    workerName: row.worker_name,
    claimedBy: row.claimed_by,
    releasedAt: row.released_at,
    claimedAt: row.claimed_at,
    reportBy: reportBy === null ? null : new Date(reportBy).toISOString(),
    overdue: reportBy !== null && reportBy <= now,
    dueSoon: reportBy !== null && reportBy > now && reportBy - now <= DUE_SOON_MS,
    unclaimedMinutes: unclaimed ? Math.floor(waited / 60_000) : null,
    failedAt: open ? null : row.updated_at,
    failureReason: row.failure_reason,
    caption: row.caption,
  };
}

/** The board: each section's count and its first `limit` tasks (oldest first; failures newest). */
export async function fulfilmentBoard(
  db: DbOrTx,
  filter: BoardFilter,
  opts: {
    now: Date;
    reportTimeoutMs: number;
    /** Unclaimed tasks this old are marked as not claimed; none without it. */
    handoffMs?: number;
    days?: number;
    limit?: number;
  },
): Promise<FulfilmentBoard> {
  const now = opts.now.getTime();
  const since = new Date(now - (opts.days ?? 7) * 86_400_000).toISOString();
  const limit = opts.limit ?? 50;
  const sections = await Promise.all(
    SECTIONS.map((section) =>
      board.boardSection(db, section, filter, {
        since,
        unconfirmedReason: UNCONFIRMED_REASON,
        limit,
      }),
    ),
  );
  const out = {} as FulfilmentBoard;
  SECTIONS.forEach((section, i) => {
    const open = section === 'unclaimed' || section === 'claimed';
    const { count, rows } = sections[i] as { count: number; rows: BoardRow[] };
    out[section] = {
      count,
      tasks: rows.map((r) => taskOf(r, open, now, opts.reportTimeoutMs, opts.handoffMs ?? null)),
    };
  });
  return out;
}
