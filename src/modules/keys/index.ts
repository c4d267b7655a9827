// The keys module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export { KeyUse } from './key-use.jobs.ts';
export {
  createKey,
  getCompanyKey,
  listKeys,
  parseScopes,
  revokeCompanyKey,
  revokeKey,
  verifiedKey,
  verifyKey,
} from './keys.service.ts';
