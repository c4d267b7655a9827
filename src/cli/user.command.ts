// `slotline user create|list|disable|reset`: the people who sign in to the dashboard.
import type { Command } from 'commander';
import type { UserInfo } from '../modules/users/index.ts';
import { print, withContext } from './shared.ts';

const users = () => import('../modules/users/index.ts');

function userLine(u: UserInfo): string {
  return [u.userId, u.email, u.role, u.companyId, ...(u.disabledAt ? ['disabled'] : [])].join('  ');
}

/** The password, once, and where to use it. */
function passwordText(heading: string, email: string, password: string, url: string): string {
  return [
    heading,
    password,
    'Store it now: it is not shown again.',
    `Sign in at ${url} with ${email} and this password.`,
  ].join('\n');
}

export function registerUser(program: Command): void {
  const user = program
    .command('user')
    .description('manage dashboard users (roles: viewer, editor, admin)');
  user
    .command('create')
    .requiredOption('--company <companyId>')
    .requiredOption('--email <email>')
    .option('--role <role>', 'admin, editor or viewer', 'viewer')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx) => {
        const { createUser } = await users();
        const r = await createUser(ctx.db, ctx.clock, {
          companyId: o.company,
          email: o.email,
          role: o.role,
        });
        const signInUrl = `${ctx.config.publicUrl}/dashboard/`;
        print(
          !!o.json,
          { ...r.user, password: r.password, signInUrl },
          passwordText(
            `created user ${r.user.userId} ${r.user.email} (${r.user.role}) in company ${r.user.companyId}; password:`,
            r.user.email,
            r.password,
            signInUrl,
          ),
        );
      }),
    );
  user
    .command('list')
    .option('--company <companyId>')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx) => {
        const { listUsers } = await users();
        const list = await listUsers(ctx.db, o.company ?? null);
        print(!!o.json, list, list.length ? list.map(userLine).join('\n') : 'no users');
      }),
    );
  user
    .command('disable <userId>')
    .description('disable a user; its sessions end at once')
    .option('--json', 'machine-readable output')
    .action(async (userId: string, o) =>
      withContext(async (ctx) => {
        const { disableUser } = await users();
        const u = await disableUser(ctx.db, ctx.clock, userId);
        print(!!o.json, u, `disabled user ${u.userId} (${u.email}); its sessions have ended`);
      }),
    );
  user
    .command('reset <userId>')
    .description('a new password; the user is enabled again and its sessions end')
    .option('--json', 'machine-readable output')
    .action(async (userId: string, o) =>
      withContext(async (ctx) => {
        const { resetPassword } = await users();
        const r = await resetPassword(ctx.db, ctx.clock, userId);
        const signInUrl = `${ctx.config.publicUrl}/dashboard/`;
        print(
          !!o.json,
          { ...r.user, password: r.password, signInUrl },
          passwordText(
            `new password for user ${r.user.userId} ${r.user.email} (${r.user.role}); its sessions have ended:`,
            r.user.email,
            r.password,
            signInUrl,
          ),
        );
      }),
    );
}
