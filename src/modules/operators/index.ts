// The operators module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export {
  companyDetail,
  companyOverview,
  operatorChangeCompany,
  operatorCreateCompany,
  operatorInviteAdmin,
  operatorSuspendCompany,
} from './operator-companies.service.ts';
export type { CompanyOverview, NewCompany } from './operator-companies.service.ts';
export {
  assignableAccounts,
  operatorAssignAccounts,
  operatorMoveAccount,
  operatorUnassignAccounts,
} from './operator-assignments.service.ts';
export type { AccountWithWorker } from './operator-assignments.service.ts';
export {
  CONSOLE_SECTION_ROWS,
  activeByName,
  boardOverview,
  setupOverview,
} from './operator-fulfilment.service.ts';
export type {
  BoardView,
  DisconnectedAccount,
  NamedTask,
  QueuedSetup,
} from './operator-fulfilment.service.ts';
export { ADMIN_CLI, listOperatorLog } from './operator-log.service.ts';
export type { LogDetails, OperatorActor, OperatorLogEntry } from './operator-log.service.ts';
export { resolveOperatorSession, signOutOperator } from './operator-sessions.service.ts';
export type { OperatorSession } from './operator-sessions.service.ts';
export {
  MAX_CODE_FAILURES,
  MAX_PASSWORD_FAILURES,
  OperatorSignInRefused,
  confirmEnrolment,
  passSecondFactor,
  recoveryCodesLeft,
  signInOperator,
} from './operator-sign-in.service.ts';
export {
  OPERATOR_LINK_MS,
  OperatorAccountError,
  OperatorLinkRefused,
  acceptOperatorLink,
  createOperator,
  disableOperator,
  enrolmentOf,
  listOperators,
  operatorLabel,
  operatorLinkInfo,
  operatorWelcomeUrl,
  resetOperator,
} from './operators.service.ts';
export type {
  Enrolment,
  IssuedOperatorLink,
  OperatorInfo,
  OperatorLinkInfo,
} from './operators.service.ts';
export { RECOVERY_CODE_COUNT, TOTP_PERIOD_SECONDS } from './totp.rules.ts';
export {
  CONSOLE_FIGURES_DAYS,
  ConsoleRefusal,
  operatorCreateWorker,
  operatorRevokeWorker,
  operatorRotateWorkerToken,
  operatorUpdateWorker,
  operatorWorkerLink,
  workerDetail,
  workerOverview,
} from './operator-workers.service.ts';
export type {
  NamedAccount,
  WorkerChange,
  WorkerDetail,
  WorkerLink,
  WorkerOverview,
} from './operator-workers.service.ts';
