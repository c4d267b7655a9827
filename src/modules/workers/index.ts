// The workers module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export {
  claimTask,
  claimTasks,
  getTask,
  heartbeat,
  listTasks,
  taskListVersion,
} from './tasks.service.ts';
export { attachTaskProof, recordSnapshot, reportResult } from './task-reports.service.ts';
export type { ProofSent } from './task-reports.service.ts';
export {
  reportAccountStats,
  reportAccountStatus,
  workerAccountFacts,
} from './worker-accounts.service.ts';
export {
  WORKER_LINK_MS,
  WORKER_LINK_PATH,
  createWorkerSignInLink,
  peekWorkerSignInLink,
  resolveWorkerSession,
  signInWorker,
  signInWorkerByLink,
  signOutWorker,
} from './worker-sessions.service.ts';
export type { WorkerSession } from './worker-sessions.service.ts';
export { workerSchemas, workersRoutes } from './workers.routes.ts';
export {
  AccountStatsBody,
  AccountStatusBody,
  ResultBody,
  SnapshotBody,
  TaskListQuery,
} from './workers.schemas.ts';
export type {
  AccountStatsInput,
  AccountStatusInput,
  ResultInput,
  SnapshotInput,
  TaskOut,
} from './workers.schemas.ts';
export {
  latestTaskFigures,
  recentlyPostedTasks,
  taskWindows,
  workerAppAccount,
  workerAppAccounts,
} from './worker-app.service.ts';
export type {
  AccountFigures,
  PostedTask,
  TaskFigures,
  TaskWindow,
  WorkerAppAccount,
} from './worker-app.service.ts';
export {
  MAX_WORKER_NAME,
  WorkerError,
  assignAccounts,
  createWorker,
  deleteIdleWorker,
  getWorker,
  isWorkerTimezone,
  listSimulatedWorkers,
  listWorkers,
  revokeWorker,
  rotateWorkerToken,
  updateWorker,
  verifyWorkerToken,
  workerNames,
} from './workers.service.ts';
export type { IssuedWorker, WorkerInfo } from './workers.service.ts';
