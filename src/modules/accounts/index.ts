// The accounts module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export { holdReleasable, releaseTargets } from './account-releases.service.ts';
export {
  ACCOUNT_STATUSES,
  NOT_PLANNED_REASONS,
  RELEASABLE_STATUSES,
  WORKER_STATUSES,
  notPlannedReason,
} from './account-status.rules.ts';
export type { NotPlannedReason, WorkerStatus } from './account-status.rules.ts';
export {
  accountsOfWorker,
  assignAccounts,
  findAccountsByIds,
  findWorkerAccount,
  setTimezoneOfWorkerAccounts,
} from './account-workers.service.ts';
export type { WorkerAccountRow } from './account-workers.service.ts';
export {
  changeStatus,
  noteFollowers,
  notePosted,
  reportWorkerStatus,
  setPaused,
} from './accounts.state.ts';
export { listAccounts } from './accounts-list.service.ts';
export {
  accountSummaries,
  companyAccountSummaries,
  disconnectedAccounts,
  setupQueue,
  workerAccountSummaries,
} from './accounts-overview.service.ts';
export type { AccountSummary, Counted, SetupRequest } from './accounts-overview.service.ts';
export { accountSchemas, accountsRoutes } from './accounts.routes.ts';
export {
  AccountIdParams,
  CreateAccountBody,
  ListAccountsQuery,
  Platform,
} from './accounts.schemas.ts';
export type { CreateAccountInput } from './accounts.schemas.ts';
export {
  NO_ACTIVITY,
  activityOf,
  countCompanyAccounts,
  createAccount,
  findTargetAccounts,
  getAccount,
  getAccountRow,
  listCompanyAccounts,
  nextWindowAt,
  setAccountSchedule,
  toAccount,
} from './accounts.service.ts';
export type { TargetAccount } from './accounts.service.ts';
