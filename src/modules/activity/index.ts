// The activity module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export { OPERATOR, listActivity, recordActivity } from './activity.service.ts';
export type { Actor } from './activity.service.ts';
