// `slotline company create|update|list`.
import type { Command } from 'commander';
import { onOff, print, withContext } from './shared.ts';

export function registerCompany(program: Command): void {
  const company = program.command('company').description('manage companies');
  company
    .command('create')
    .requiredOption('--name <name>', 'company name')
    .option('--plan <plan>', 'plan name (default: DEFAULT_PLAN)')
    .option('--timezone <tz>', 'default worker timezone for new accounts (IANA)')
    .option('--description <text>')
    .option('--website <url>')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx, config) => {
        const { createCompany } = await import('../modules/companies/index.ts');
        const c = await createCompany(ctx.db, ctx.clock, config.plans, {
          name: o.name,
          plan: o.plan ?? config.defaultPlan,
          defaultTimezone: o.timezone,
          description: o.description,
          website: o.website,
        });
        print(!!o.json, c, `created company ${c.companyId} (${c.name}, plan ${c.plan})`);
      }),
    );
  company
    .command('update <companyId>')
    .option('--plan <plan>', 'plan name')
    .option('--platformB-feed-posts <onoff>', 'allow platformB feed posts (on|off)')
    .option('--timezone <tz>', 'default worker timezone for new accounts')
    .option('--name <name>')
    .option('--description <text>')
    .option('--website <url>')
    .option('--json', 'machine-readable output')
    .action(async (companyId: string, o) =>
      withContext(async (ctx, config) => {
        const { updateCompany } = await import('../modules/companies/index.ts');
        const c = await updateCompany(ctx.db, ctx.clock, config.plans, companyId, {
          plan: o.plan,
          platformBFeedPosts:
            o.platformBFeedPosts === undefined ? undefined : onOff(o.platformBFeedPosts),
          defaultTimezone: o.timezone,
          name: o.name,
          description: o.description,
          website: o.website,
        });
        print(!!o.json, c, `updated company ${c.companyId}`);
      }),
    );
  company
    .command('list')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx) => {
        const { listCompanies } = await import('../modules/companies/index.ts');
        const list = await listCompanies(ctx.db);
        print(!!o.json, list, list.map((c) => `${c.companyId}  ${c.plan}  ${c.name}`).join('\n'));
      }),
    );
}
