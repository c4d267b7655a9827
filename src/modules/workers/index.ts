// The workers module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export {
  claimTask,
  claimTasks,
  getTask,
  heartbeat,
  listTasks,
  recordSnapshot,
  reportAccountStats,
  reportResult,
} from './tasks.service.ts';
export { reportAccountStatus, workerAccountFacts } from './worker-accounts.service.ts';
export {
  WORKER_LINK_MS,
  WORKER_LINK_PATH,
  WorkerSignInRefused,
  createWorkerSignInLink,
  resolveWorkerSession,
  signInWorker,
  signInWorkerByLink,
  signOutWorker,
} from './worker-sessions.service.ts';
export type { WorkerSession } from './worker-sessions.service.ts';
export { workerSchemas, workersRoutes } from './workers.routes.ts';
export { ResultBody, TaskListQuery } from './workers.schemas.ts';
export type { ResultInput, TaskOut } from './workers.schemas.ts';
export {
  WorkerError,
  assignAccounts,
  createWorker,
  deleteIdleWorker,
  getWorker,
  listSimulatedWorkers,
  listWorkers,
  revokeWorker,
  rotateWorkerToken,
  updateWorker,
  verifyWorkerToken,
} from './workers.service.ts';
export type { WorkerInfo } from './workers.service.ts';
