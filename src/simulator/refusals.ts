// The reports of a simulated worker the worker rules refuse: what each one is, and the one
// line that says what was refused, why, and what becomes of it.

/**
 * What a simulated worker sends: a claim, a task's result or snapshot, an account's status or
 * statistics.
 */
export type ReportKind = 'claim' | 'result' | 'snapshot' | 'account_status' | 'account_stats';

/** A report the worker rules refused (an ApiError other than a race). */
export interface Refusal {
  workerId: string;
  report: ReportKind;
  /** The task (claim, result, snapshot) or account (status, statistics) reported on. */
  subject: string;
  /** The error code and message the worker API would answer with. */
  code: string;
  message: string;
}

/** Reports another process or a deadline settled first; the next pass sees the new state. */
export const RACES = new Set<string>([
  'task_not_found',
  'task_not_claimed',
  'task_already_reported',
  // The account went to another worker since the heartbeat.
  'account_not_found',
]);

const REFUSED_WHAT: Record<ReportKind, string> = {
  claim: 'the claim of task',
  result: 'the result of task',
  snapshot: 'a snapshot of task',
  account_status: 'the status report of account',
  account_stats: 'the statistics report of account',
};

const REFUSED_THEN: Record<ReportKind, string> = {
  claim: 'the task is left to its report deadline',
  result: 'the task is left to its report deadline',
  snapshot: 'no more snapshots of the task are sent',
  account_status: 'the status is not reported again',
  account_stats: 'no more statistics of the account are sent',
};

/** One line saying what was refused, why, and what happens to it. */
export function describeRefusal(r: Refusal): string {
  const message = r.message.replace(/\s+/g, ' ').trim();
  return (
    `simulated worker ${r.workerId}: ${REFUSED_WHAT[r.report]} ${r.subject} was refused ` +
    `(${r.code}: ${message}); ${REFUSED_THEN[r.report]}`
  );
}

/**
 * A refused report handed to a loop's onError (when its report has no onRefused): an
 * expected outcome of the worker rules, so it carries no stack trace, only its one line
 * and the refusal's fields.
 */
export class SimulatorRefusal extends Error {
  readonly workerId: string;
  readonly report: ReportKind;
  readonly subject: string;
  readonly code: string;
  constructor(refusal: Refusal) {
    super(describeRefusal(refusal));
    this.name = 'SimulatorRefusal';
    this.workerId = refusal.workerId;
    this.report = refusal.report;
    this.subject = refusal.subject;
    this.code = refusal.code;
    this.stack = `${this.name}: ${this.message}`;
  }
}
