// What an operator log entry says, in a sentence a person reads: names and emails as they
// were when the action was taken, never raw ids.
import { describeChanges, type CompanyChange } from '../modules/companies/index.ts';
import type { OperatorLogEntry } from '../modules/operators/index.ts';

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function onOff(value: unknown): string {
  return value === true ? 'on' : 'off';
}

function isChange(value: unknown): value is CompanyChange {
  return typeof value === 'object' && value !== null && 'field' in value && 'to' in value;
}

/** The entry as one sentence. */
export function describeEntry(entry: OperatorLogEntry): string {
  const d = entry.details;
  const company = `“${text(d.name) || entry.companyName || 'a company'}”`;
  switch (entry.action) {
    case 'company.created':
      return `Created company ${company}: plan ${text(d.plan)}, platformB feed posts ${onOff(d.platformBFeedPosts)}, timezone ${text(d.defaultTimezone) || 'the default'}.`;
    case 'company.updated': {
      const changes = Array.isArray(d.changes) ? d.changes.filter(isChange) : [];
      return `Changed ${company}: ${describeChanges(changes)}.`;
    }
    case 'company.suspended':
      return `Suspended ${company}${text(d.reason) ? `: ${text(d.reason)}` : ''}.`;
    case 'company.resumed':
      return `Resumed ${company}.`;
    case 'user.invited':
      return `Invited ${text(d.email)} as ${text(d.role)} of ${company}.`;
    case 'operator.created':
      return `Created operator ${text(d.name)} <${text(d.email)}>.`;
    case 'operator.disabled':
      return `Disabled operator ${text(d.email)}.`;
    case 'operator.reset':
      return `Reset the password and second factor of operator ${text(d.email)}.`;
    case 'operator.enrolled':
      return `Set up two-factor sign-in (${text(d.email)}).`;
    case 'operator.signed_in':
      return d.method === 'recovery_code'
        ? `Signed in with a recovery code (${String(d.recoveryCodesLeft)} left).`
        : 'Signed in.';
    default:
      return entry.action;
  }
}
