// The users module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export {
  MAX_FAILURES_PER_ADDRESS,
  ROLES,
  SignInRefused,
  UserError,
  clearSignInAttempts,
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
export type { AttemptLimit, SessionUser, UserInfo } from './users.service.ts';
export {
  USER_LINK_MS,
  UserLinkRefused,
  acceptUserLink,
  inviteUser,
  userLinkInfo,
  userWelcomeUrl,
} from './user-links.service.ts';
export type { IssuedUserLink, UserLinkInfo } from './user-links.service.ts';
export {
  CompanyUserRefused,
  changeUserRole,
  disableCompanyUser,
  getCompanyUser,
  inviteCompanyUser,
  listCompanyUsers,
  resetCompanyUser,
  setUserTimezone,
} from './company-users.service.ts';
export type { CompanyUser, SignInState } from './company-users.service.ts';
