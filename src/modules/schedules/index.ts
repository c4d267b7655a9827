// The schedules module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export { scheduleSchemas, schedulesRoutes } from './schedules.routes.ts';
export type { ScheduleInputBody } from './schedules.schemas.ts';
export {
  getAccountSchedule,
  getCompanySchedule,
  setAccountSchedule,
  setCompanySchedule,
} from './schedules.service.ts';
