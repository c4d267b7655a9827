// The operators module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export {
  operatorChangeCompany,
  operatorCreateCompany,
  operatorInviteAdmin,
  operatorSuspendCompany,
} from './operator-companies.service.ts';
export type { NewCompany } from './operator-companies.service.ts';
export {
  operatorAssignAccounts,
  operatorMoveAccount,
  operatorUnassignAccounts,
} from './operator-assignments.service.ts';
export {
  ADMIN_CLI,
  listOperatorLog,
  operatorLabel,
  recordOperatorAction,
} from './operator-log.service.ts';
export type { LogDetails, OperatorActor, OperatorLogEntry } from './operator-log.service.ts';
export { resolveOperatorSession, signOutOperator } from './operator-sessions.service.ts';
export type { OperatorSession } from './operator-sessions.service.ts';
export {
  MAX_CODE_FAILURES,
  MAX_PASSWORD_FAILURES,
  confirmEnrolment,
  passSecondFactor,
  recoveryCodesLeft,
  signInOperator,
} from './operator-sign-in.service.ts';
export {
  OperatorAccountError,
  createOperator,
  disableOperator,
  listOperators,
  operatorRecipients,
  resetOperator,
} from './operators.service.ts';
export type { OperatorInfo } from './operators.service.ts';
export {
  OPERATOR_LINK_MS,
  OPERATOR_RECOVER_LINK_MS,
  acceptOperatorLink,
  enrolmentOf,
  operatorLinkInfo,
  operatorWelcomeUrl,
  requestOperatorRecovery,
} from './operator-links.service.ts';
export type { Enrolment, IssuedOperatorLink, OperatorLinkInfo } from './operator-links.service.ts';
export { RECOVERY_CODE_COUNT, TOTP_PERIOD_SECONDS } from './totp.rules.ts';
export {
  operatorCreateWorker,
  operatorRevokeWorker,
  operatorRotateWorkerToken,
  operatorUpdateWorker,
  operatorWorkerLink,
} from './operator-workers.service.ts';
export type { WorkerChange, WorkerLink } from './operator-workers.service.ts';
