// The statuses of an account (DECISIONS 7) and what each means for releases. Pure: the
// dispatcher, the queue and the account views all read their answers from here.

export const ACCOUNT_STATUSES = [
  'pending_setup',
  'warming_up',
  'active',
  'paused',
  'disconnected',
] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** What the worker operating an account reports; `paused` is the company's alone. */
export const WORKER_STATUSES = ['warming_up', 'active', 'disconnected'] as const;
export type WorkerStatus = (typeof WORKER_STATUSES)[number];

/**
 * Statuses that receive releases. A warming-up account is in its worker's hands and can post
 * (the issue blocks only the other three); nothing is released to an account still being set
 * up, paused by its company, or that its worker lost access to.
 */
export const RELEASABLE_STATUSES = ['warming_up', 'active'] as const;

export const NOT_PLANNED_REASONS = [
  'account_pending_setup',
  'account_paused',
  'account_disconnected',
] as const;
export type NotPlannedReason = (typeof NOT_PLANNED_REASONS)[number];

export function isReleasable(status: string): boolean {
  return status === 'warming_up' || status === 'active';
}

/** Why nothing is planned for an account in `status`, or null when its items are planned. */
export function notPlannedReason(status: string): NotPlannedReason | null {
  if (status === 'paused') return 'account_paused';
  if (status === 'disconnected') return 'account_disconnected';
  if (status === 'pending_setup') return 'account_pending_setup';
  return null;
}

/** The effective status: a company pause wins over whatever the worker reported. */
export function effectiveStatus(workerStatus: string, pausedAt: string | null): AccountStatus {
  return (pausedAt !== null ? 'paused' : workerStatus) as AccountStatus;
}
