// The companies module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export {
  createCompany,
  getCompany,
  getCompanyRow,
  listCompanies,
  lockCompany,
  setCompanySchedule,
  updateCompany,
} from './companies.service.ts';
