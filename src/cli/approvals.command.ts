// `slotline approve` and `slotline reject`: decide a post's items waiting for approval.
import type { Command } from 'commander';
import { print, withContext } from './shared.ts';

export function registerApprovals(program: Command): void {
  for (const [name, verb] of [
    ['approve', 'approved'],
    ['reject', 'rejected'],
  ] as const) {
    program
      .command(name)
      .description(`${name} a post's items waiting for approval`)
      .requiredOption('--post <postId>')
      .option('--account <accountId>', 'only this account of the post')
      .option('--json', 'machine-readable output')
      .action(async (o) =>
        withContext(async (ctx) => {
          const approvals = await import('../modules/items/index.ts');
          const r = await approvals[name](ctx, { postId: o.post, accountId: o.account });
          print(
            !!o.json,
            r,
            `${verb} ${r.changed.length} item(s) of post ${r.postId}; post is now ${r.postStatus}`,
          );
        }),
      );
  }
}
