// What needs an operator now, across companies: the setup queue (accounts waiting for a
// worker to set them up, with everything their company asked for) and the fulfilment
// board (released tasks unclaimed and claimed with their report deadlines, unconfirmed
// and failed ones, and accounts whose worker lost access), by company and by worker,
// with names in place of ids. Read through module faces.
import type { Db } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  disconnectedAccounts,
  setupQueue,
  type AccountSummary,
  type SetupRequest,
} from '../../modules/accounts/index.ts';
import {
  fulfilmentBoard,
  type BoardSection,
  type BoardTask,
  type FulfilmentBoard,
} from '../../modules/items/index.ts';
import { listWorkers, type WorkerInfo } from '../../modules/workers/index.ts';
import { withCompanyNames } from './workers-board.ts';

/** The most rows a section of the board or the setup queue shows. */
export const CONSOLE_SECTION_ROWS = 50;

export type QueuedSetup = SetupRequest & {
  companyName: string;
  workerName: string | null;
  /** How long it has waited since it was created, in milliseconds. */
  waitingMs: number;
};

/** The setup queue, oldest first, with the active workers to hand each account to. */
export async function setupOverview(
  db: Db,
  clock: Clock,
): Promise<{ count: number; accounts: QueuedSetup[]; workers: WorkerInfo[] }> {
  const [queue, workers] = await Promise.all([
    setupQueue(db, { limit: CONSOLE_SECTION_ROWS }),
    listWorkers(db),
  ]);
  const names = new Map(workers.map((w) => [w.workerId, w.name]));
  const now = clock.now().getTime();
  const named = await withCompanyNames(db, queue.accounts);
  return {
    count: queue.count,
    accounts: named.map((a) => ({
      ...a,
      workerName: a.workerId ? (names.get(a.workerId) ?? null) : null,
      waitingMs: Math.max(0, now - Date.parse(a.createdAt)),
    })),
    workers: activeByName(workers),
  };
}

/** Active workers by name: those accounts may be given to. */
export function activeByName(workers: readonly WorkerInfo[]): WorkerInfo[] {
  return workers
    .filter((w) => w.revokedAt === null)
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
}

export type NamedTask = BoardTask & { claimedByName: string | null };

export type DisconnectedAccount = AccountSummary & {
  companyName: string;
  workerName: string | null;
};

export interface BoardView {
  sections: Record<BoardSection, { count: number; tasks: NamedTask[] }>;
  disconnected: { count: number; accounts: DisconnectedAccount[] };
}

/**
 * The fulfilment board of one company and/or one worker (or of all), each section's count
 * and its first rows, with the accounts `disconnected` in the same view.
 */
export async function boardOverview(
  db: Db,
  clock: Clock,
  filter: { companyId?: string; workerId?: string },
  reportTimeoutMs: number,
  handoffMs?: number,
): Promise<BoardView> {
  const now = clock.now();
  const [board, disconnected, workers] = await Promise.all([
    fulfilmentBoard(db, filter, {
      now,
      reportTimeoutMs,
      ...(handoffMs === undefined ? {} : { handoffMs }),
      limit: CONSOLE_SECTION_ROWS,
    }),
    disconnectedAccounts(db, filter, { limit: CONSOLE_SECTION_ROWS }),
    listWorkers(db),
  ]);
  const names = new Map(workers.map((w) => [w.workerId, w.name]));
  const sections = {} as BoardView['sections'];
  for (const [section, { count, tasks }] of Object.entries(board) as [
    BoardSection,
    FulfilmentBoard[BoardSection],
  ][]) {
    sections[section] = {
      count,
      tasks: tasks.map((t) => ({
        ...t,
        claimedByName: t.claimedBy ? (names.get(t.claimedBy) ?? null) : null,
      })),
    };
  }
  const named = await withCompanyNames(db, disconnected.accounts);
  return {
    sections,
    disconnected: {
      count: disconnected.count,
      accounts: named.map((a) => ({
        ...a,
        workerName: a.workerId ? (names.get(a.workerId) ?? null) : null,
      })),
    },
  };
}
