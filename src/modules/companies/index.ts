// The companies module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export {
  CompanyError,
  MAX_COMPANY_NAME,
  changeCompany,
  createCompany,
  describeChanges,
  getCompanies,
  getCompany,
  getCompanyRow,
  listCompanies,
  lockCompany,
  pageCompanies,
  APPROVAL_LEAD_CHOICES,
  setApprovalLead,
  setCompanySchedule,
  setCompanySuspended,
  updateCompany,
} from './companies.service.ts';
export type {
  CompanyChange,
  CompanyInfo,
  CreateCompanyInput,
  UpdateCompanyInput,
} from './companies.service.ts';
