// `slotline seed demo`; the demo data itself is made by ./seed.ts.
import type { Command } from 'commander';
import { print, withContext } from './shared.ts';

export function registerSeed(program: Command): void {
  const seed = program.command('seed').description('demo data');
  seed
    .command('demo')
    .description(
      'a demo company with an admin user, a simulated worker operating its accounts, queued posts',
    )
    .option('--timezone <tz>', "the worker's timezone (default: one where it is working hours now)")
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withContext(async (ctx, config) => {
        const { seedDemo } = await import('./seed.ts');
        const { drainMediaJobs } = await import('../dispatch/media-loop.ts');
        const r = await seedDemo(ctx, o.timezone ? { timezone: o.timezone } : {});
        // The thumbnails of the demo's images, made now rather than left to the service.
        await drainMediaJobs(ctx, config.mediaJobLeaseMs);
        const now = ctx.clock.now();
        const inMinutes = Math.max(
          0,
          Math.round((Date.parse(r.nextWindow) - now.getTime()) / 60_000),
        );
        const local = (iso: string) =>
          new Date(iso).toLocaleTimeString('en-GB', {
            timeZone: r.worker.timezone,
            hour: '2-digit',
            minute: '2-digit',
          });
        const queued = r.posts.filter((p) => p.status === 'queued').length;
        const waiting = r.posts.filter((p) => p.status === 'pending_approval');
        print(
          !!o.json,
          r,
          [
            `demo company ${r.companyId} with ${r.accountIds.length} accounts`,
            `API key (all scopes): ${r.apiKey}`,
            `simulated worker ${r.worker.workerId} (${r.worker.name}) in ${r.worker.timezone} operates them:`,
            ...r.accounts.map(
              (a) =>
                `  ${a.accountId}  ${a.platform.padEnd(9)}  ${a.username.padEnd(12)}  windows ${a.windows.join(' ')}  next ${local(a.nextWindow)}`,
            ),
            `posts: ${queued} queued` +
              (waiting.length
                ? `, ${waiting.length} waiting for approval (${waiting.map((p) => `slotline approve --post ${p.postId}`).join('; ')})`
                : ''),
            `next window: ${r.nextWindow} (${local(r.nextWindow)} ${r.worker.timezone}, in ${inMinutes} min)`,
            `run the service (npm start): the simulator sets the accounts up (warming_up, active a minute`,
            `later), releases go out at each window, the simulator posts them`,
            `and analytics fill in over the following hours (SIMULATOR=off turns it off).`,
            `try: curl -H "Authorization: Bearer ${r.apiKey}" ${config.publicUrl}/v2/accounts`,
            `dashboard: sign in at ${r.user.signInUrl} as ${r.user.email} (${r.user.role}) with password ${r.user.password}` +
              (r.user.companyId !== r.companyId
                ? ` (a new password; that user belongs to the demo company ${r.user.companyId}, seeded earlier)`
                : ''),
            `operator console: open ${r.operator.signInUrl} (once, within 24 hours) to set the ` +
              `password and two-factor sign-in of ${r.operator.email}`,
          ].join('\n'),
        );
      }),
    );
}
