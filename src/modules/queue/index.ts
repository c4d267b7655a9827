// The queue module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export {
  CALENDAR_VIEWS,
  calendarPeriod,
  calendarThumbnail,
  companyCalendar,
  isCalendarDate,
  weekdayIndex,
} from './calendar.service.ts';
export type {
  CalendarAccount,
  CalendarDay,
  CalendarEntry,
  CalendarPeriod,
  CalendarView,
  CompanyCalendar,
  FreeWindow,
} from './calendar.service.ts';
export { queueRoutes, queueSchemas } from './queue.routes.ts';
export { plannedSlotsOfPost } from './queue.service.ts';
