// The users module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export {
  ROLES,
  UserError,
  companiesOfUsers,
  createUser,
  disableUser,
  findUserByEmail,
  listUsers,
  resetPassword,
  resolveSession,
  roleAllows,
  signIn,
  signOut,
  userEmails,
} from './users.service.ts';
export type { SessionUser, UserInfo } from './users.service.ts';
export {
  USER_LINK_MS,
  USER_RECOVER_LINK_MS,
  acceptUserLink,
  inviteUser,
  userLinkInfo,
  userWelcomeUrl,
} from './user-links.service.ts';
export type { IssuedUserLink, UserLinkInfo } from './user-links.service.ts';
export { requestUserRecovery } from './user-recovery.service.ts';
export {
  changeUserRole,
  companyApprovers,
  disableCompanyUser,
  getCompanyUser,
  inviteCompanyUser,
  listCompanyUsers,
  resetCompanyUser,
  setUserTimezone,
} from './company-users.service.ts';
export type { Approver, CompanyUser, SignInState } from './company-users.service.ts';
