// The sign-in module's face: what code outside the module may use. Everything else in
// this folder is the module's own. It keeps the sessions, one-time sign-in links and
// failed-attempt counts of every audience (company users, operators, workers); the modules
// that own those people decide who may sign in and what a session means.
export type { Audience } from './audiences.rules.ts';
export {
  ATTEMPT_WINDOW_MS,
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ADDRESS,
  clearSignInAttempts,
  releaseSignInAttempts,
  reserveSignInAttempt,
} from './attempts.service.ts';
export type { AttemptLimit } from './attempts.service.ts';
export {
  endSession,
  endSessionsOf,
  openSession,
  resolveSession,
  takeOperatorSession,
} from './sessions.service.ts';
export { LinkRefused, SignInRefused } from './refusals.rules.ts';
export type { SignInRefusal } from './refusals.rules.ts';
export { expireLinksOf, issueLink, latestLinksOf, liveLink, useLink } from './links.service.ts';
