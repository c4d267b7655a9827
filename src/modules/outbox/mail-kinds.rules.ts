// What each kind of message is, in the words the outbox pages show.
const KIND_LABELS: Record<string, string> = {
  invite: 'Invitation',
  sign_in_reset: 'Sign-in reset by an admin',
  password_reset: 'Forgotten password',
  operator_invite: 'Operator account',
  operator_reset: 'Operator sign-in reset',
  approval_due: 'Approvals due soon',
  approval_missed: 'Approval will miss its window',
  task_released: 'New task',
  push_test: 'Test push',
  handoff_unclaimed: 'Task not claimed',
  task_failed: 'Post failed',
  task_unconfirmed: 'Post not confirmed',
  account_disconnected: 'Account disconnected',
  daily_summary: 'Daily summary',
  report_due: 'Report due soon',
};

export function mailKindLabel(kind: string): string {
  return KIND_LABELS[kind] ?? kind.replace(/_/g, ' ');
}
