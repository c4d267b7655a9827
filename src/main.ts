// Process entry for `slotline serve`: config, migrations, app, listen, graceful close.
import pino from 'pino';
import { buildApp } from './app.ts';
import { openContext } from './bootstrap.ts';
import type { Config } from './config.ts';

export async function serve(config: Config): Promise<void> {
  const logger = pino({
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization'], censor: '[redacted]' },
  });
  const opened = await openContext(config, {
    onBackgroundError: (err) => logger.error({ err }, 'background job failed'),
  });
  const app = await buildApp(opened.ctx, { logger });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
      await opened.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  logger.info(
    {
      storage: config.databaseUrl ? 'postgres' : `sqlite (${config.dataDir})`,
      openapi: `${config.publicUrl}/v2/openapi.json`,
    },
    'slotline is ready',
  );
}
