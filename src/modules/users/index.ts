// The users module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export {
  MAX_FAILURES_PER_ADDRESS,
  SignInRefused,
  createUser,
  disableUser,
  findUserByEmail,
  listUsers,
  releaseSignInAttempts,
  reserveSignInAttempt,
  resetPassword,
  resolveSession,
  roleAllows,
  signIn,
  signOut,
} from './users.service.ts';
export type { SessionUser, UserInfo } from './users.service.ts';
