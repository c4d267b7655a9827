// `slotline key create|list|revoke`.
import type { Command } from 'commander';
import { print, withContext } from './shared.ts';

export function registerKey(program: Command): void {
  const key = program.command('key').description('manage API keys');
  key
    .command('create')
    .requiredOption('--company <companyId>')
    .requiredOption('--scopes <scopes>', 'comma-separated scopes, e.g. posts:read,posts:write')
    .option('--name <name>', 'label for the key')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx) => {
        const { createKey, parseScopes } = await import('../modules/keys/index.ts');
        const k = await createKey(ctx.db, ctx.clock, {
          companyId: o.company,
          scopes: parseScopes(o.scopes),
          name: o.name,
        });
        print(
          !!o.json,
          k,
          `created key ${k.keyId} (${k.scopes.join(',')})\n${k.secret}\nStore it now: it is not shown again.`,
        );
      }),
    );
  key
    .command('list')
    .option('--company <companyId>')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx) => {
        const { listKeys } = await import('../modules/keys/index.ts');
        const keys = await listKeys(ctx.db, o.company ?? null);
        print(
          !!o.json,
          keys,
          keys
            .map(
              (k) =>
                `${k.keyId}  sl_${k.prefix}_…  ${k.companyId}  ${k.scopes.join(',')}${k.revokedAt ? '  revoked' : ''}`,
            )
            .join('\n'),
        );
      }),
    );
  key
    .command('revoke <keyId>')
    .option('--json', 'machine-readable output')
    .action(async (keyId: string, o) =>
      withContext(async (ctx) => {
        const { revokeKey } = await import('../modules/keys/index.ts');
        const k = await revokeKey(ctx.db, ctx.clock, keyId);
        print(!!o.json, k, `revoked key ${k.keyId}`);
      }),
    );
}
