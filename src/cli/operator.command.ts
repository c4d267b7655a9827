// `slotline operator create|list|disable|reset`: the service's own staff, who sign in to the
// operator console (`/operator/`) with a password and a second factor. `create` and `reset`
// print a one-time sign-in link (24 hours) through which the operator sets both.
import type { Command } from 'commander';
import type { IssuedOperatorLink, OperatorInfo } from '../modules/operators/index.ts';
import { print, withContext } from './shared.ts';

const operators = () => import('../modules/operators/index.ts');

function operatorLine(o: OperatorInfo): string {
  return [o.operatorId, o.email, o.name, o.status].join('  ');
}

/** The link, once, and what to do with it. */
function linkText(heading: string, url: string, link: IssuedOperatorLink, to: string): string {
  return [
    heading,
    url,
    `It works once, until ${link.expiresAt}: open it to choose a password and set up the authenticator app.`,
    link.emailed
      ? `It is also emailed to ${to} (sent by the running service's outbox); it is not shown again.`
      : 'Hand it over privately; it is not shown again.',
  ].join('\n');
}

export function registerOperator(program: Command): void {
  const operator = program
    .command('operator')
    .description('manage operators, who sign in to the operator console with two factors');
  operator
    .command('create')
    .description('create an operator; prints its one-time sign-in link')
    .requiredOption('--email <email>')
    .option('--name <name>', 'how the operator is shown (default: the email before "@")')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx) => {
        const { ADMIN_CLI, createOperator, operatorWelcomeUrl } = await operators();
        const r = await createOperator(
          ctx.db,
          ctx.clock,
          { email: o.email, ...(o.name !== undefined ? { name: o.name } : {}) },
          ADMIN_CLI,
          ctx.mailing,
        );
        const url = operatorWelcomeUrl(ctx.config.publicUrl, r.link.token);
        print(
          !!o.json,
          {
            ...r.operator,
            signInLink: url,
            linkExpiresAt: r.link.expiresAt,
            linkEmailed: r.link.emailed,
          },
          linkText(
            `created operator ${r.operator.operatorId} ${r.operator.email} (${r.operator.name}); one-time sign-in link:`,
            url,
            r.link,
            r.operator.email,
          ),
        );
      }),
    );
  operator
    .command('list')
    .description('list operators and their state (invited, active, disabled)')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx) => {
        const { listOperators } = await operators();
        const list = await listOperators(ctx.db);
        print(!!o.json, list, list.length ? list.map(operatorLine).join('\n') : 'no operators');
      }),
    );
  operator
    .command('disable')
    .description('disable an operator; its sessions and sign-in links end at once')
    .requiredOption('--email <email>')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx) => {
        const { ADMIN_CLI, disableOperator } = await operators();
        const r = await disableOperator(ctx.db, ctx.clock, o.email, ADMIN_CLI);
        print(
          !!o.json,
          r,
          `disabled operator ${r.operatorId} (${r.email}); its sessions have ended`,
        );
      }),
    );
  operator
    .command('reset')
    .description(
      'a new one-time sign-in link; the password and second factor must be set again, and sessions end',
    )
    .requiredOption('--email <email>')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx) => {
        const { ADMIN_CLI, operatorWelcomeUrl, resetOperator } = await operators();
        const r = await resetOperator(ctx.db, ctx.clock, o.email, ADMIN_CLI, ctx.mailing);
        const url = operatorWelcomeUrl(ctx.config.publicUrl, r.link.token);
        print(
          !!o.json,
          {
            ...r.operator,
            signInLink: url,
            linkExpiresAt: r.link.expiresAt,
            linkEmailed: r.link.emailed,
          },
          linkText(
            `reset operator ${r.operator.operatorId} ${r.operator.email}; its sessions have ended; one-time sign-in link:`,
            url,
            r.link,
            r.operator.email,
          ),
        );
      }),
    );
}
