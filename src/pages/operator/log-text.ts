// What an operator log entry says, in a sentence a person reads: names and emails as they
// were when the action was taken, never raw ids.
import { describeChanges, type CompanyChange } from '../../modules/companies/index.ts';
import type { OperatorLogEntry } from '../../modules/operators/index.ts';

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function onOff(value: unknown): string {
  return value === true ? 'on' : 'off';
}

function isChange(value: unknown): value is CompanyChange {
  return typeof value === 'object' && value !== null && 'field' in value && 'to' in value;
}

/** The accounts an assignment entry lists: `@name (platform)`, with where each came from. */
function accountsOf(value: unknown, withFrom: boolean): string {
  const list = Array.isArray(value) ? value : [];
  const names = list.map((a: unknown) => {
    const r = (typeof a === 'object' && a !== null ? a : {}) as Record<string, unknown>;
    const from = withFrom && text(r.from) ? ` (was ${text(r.from)}’s)` : '';
    return `@${text(r.username)} (${text(r.platform)})${from}`;
  });
  return names.join(', ') || 'no account';
}

function workerChanges(value: unknown, accounts: unknown): string {
  const changes = Array.isArray(value) ? value.filter(isChange) : [];
  return changes
    .map((c) =>
      c.field === 'name'
        ? `renamed “${String(c.from)}” → “${String(c.to)}”`
        : `timezone ${String(c.from)} → ${String(c.to)} (its ${Number(accounts) || 0} account(s) follow)`,
    )
    .join('; ');
}

/** The entry as one sentence. */
export function describeEntry(entry: OperatorLogEntry): string {
  const d = entry.details;
  const company = `“${text(d.name) || entry.companyName || 'a company'}”`;
  const worker = `worker ${text(d.worker) || text(d.name)}`;
  const of = entry.companyName ? ` of “${entry.companyName}”` : '';
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
    case 'operator.password_recovered':
      return `Chose a new password through a forgotten password's link (${text(d.email)}).`;
    case 'operator.signed_in':
      return d.method === 'recovery_code'
        ? `Signed in with a recovery code (${String(d.recoveryCodesLeft)} left).`
        : 'Signed in.';
    case 'worker.created':
      return `Created ${worker} in ${text(d.timezone)}, with a token and a phone sign-in link.`;
    case 'worker.updated':
      return `Changed ${worker}: ${workerChanges(d.changes, d.accounts)}.`;
    case 'worker.link_created':
      return `Made a phone sign-in link for ${worker}.`;
    case 'worker.token_rotated':
      return d.reactivated === true
        ? `Issued a new token to revoked ${worker}, making it active again.`
        : `Issued a new token to ${worker}; its old token, phones and links stopped working.`;
    case 'worker.revoked':
      return `Revoked ${worker}.`;
    case 'accounts.assigned':
      return `Gave ${accountsOf(d.accounts, true)}${of} to ${worker} (${text(d.timezone)}).`;
    case 'account.reassigned': {
      const [moved] = Array.isArray(d.accounts) ? d.accounts : [];
      const from = text((moved as Record<string, unknown> | undefined)?.from);
      return `Moved ${accountsOf(d.accounts, false)}${of} from worker ${from} to ${worker} (${text(d.timezone)}).`;
    }
    case 'accounts.unassigned':
      return `Took ${accountsOf(d.accounts, false)}${of} from ${worker}.`;
    case 'chat_hook.added':
      return `Added the chat alert hook “${text(d.label)}” (${text(d.url)}) for ${text(d.kinds)}.`;
    case 'chat_hook.changed':
      return `Changed the chat alert hook “${text(d.label)}” (${text(d.url)}): it receives ${text(d.kinds)}.`;
    case 'chat_hook.removed':
      return `Removed the chat alert hook “${text(d.label)}” (${text(d.url)}).`;
    case 'chat_hook.test_sent':
      return `Sent a test to the chat alert hook “${text(d.label)}” (${text(d.url)}).`;
    default:
      return entry.action;
  }
}
