// `slotline serve` (the default) and `slotline migrate`.
import type { Command } from 'commander';
import { print } from './shared.ts';

export function registerServe(program: Command): void {
  program
    .command('serve', { isDefault: true })
    .description('run the HTTP service (PORT, DATA_DIR, DATABASE_URL)')
    .action(async () => {
      const [{ loadConfig }, { serve }, { lockEmbeddedDatabase }] = await Promise.all([
        import('../config.ts'),
        import('../main.ts'),
        import('../db/process-lock.ts'),
      ]);
      const config = loadConfig();
      // Held until the process exits (the operating system drops it then).
      if (!config.databaseUrl) lockEmbeddedDatabase(config.dataDir, 'serve');
      await serve(config);
    });

  program
    .command('migrate')
    .description('apply pending database migrations')
    .option('--json', 'machine-readable output')
    .action(async (o: { json?: boolean }) => {
      const [{ loadConfig }, { connect, migrate }] = await Promise.all([
        import('../config.ts'),
        import('../db/connect.ts'),
      ]);
      const config = loadConfig();
      const handle = connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
      try {
        const applied = await migrate(handle.db);
        print(
          !!o.json,
          { applied },
          applied.length ? `applied: ${applied.join(', ')}` : 'up to date',
        );
      } finally {
        await handle.close();
      }
    });
}
