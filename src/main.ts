// Process entry for `slotline serve`: config, migrations, app, listen, graceful close.
import pino from 'pino';
import { buildApp } from './app.ts';
import { openContext } from './bootstrap.ts';
import type { Config } from './config.ts';
import { startDispatchLoop, type DispatchLoop } from './dispatch/loop.ts';
import {
  SIMULATOR_INTERVAL_MS,
  startSimulator,
  type SimulatorLoop,
} from './simulator/simulator.ts';

export async function serve(config: Config): Promise<void> {
  const logger = pino({
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization'], censor: '[redacted]' },
  });
  const opened = await openContext(config, {
    onBackgroundError: (err) => logger.error({ err }, 'background job failed'),
  });
  const app = await buildApp(opened.ctx, { logger });
  let dispatch: DispatchLoop | null = null;
  let simulator: SimulatorLoop | null = null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await dispatch?.stop();
      await simulator?.stop();
      await app.close();
      await opened.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  if (config.dispatchIntervalMs > 0) {
    dispatch = startDispatchLoop(opened.ctx, config.dispatchIntervalMs, {
      onPass: (r) => {
        if (r.released > 0) logger.info(r, 'released due items');
        if (r.overdue.unclaimed + r.overdue.unconfirmed > 0) {
          logger.warn(r.overdue, 'failed released tasks past their report deadline');
        }
      },
      onError: (err) => logger.error({ err }, 'dispatch pass failed'),
    });
  }
  // Plays the simulated workers (DECISIONS 6); a pass is one query when there are none.
  if (config.simulator) {
    simulator = startSimulator(opened.ctx, SIMULATOR_INTERVAL_MS, {
      onPass: (r) =>
        (r.claimed > 0 || r.posted > 0) && logger.info(r, 'simulated workers claimed or posted'),
      onError: (err) => logger.error({ err }, 'simulator pass failed'),
    });
  }
  logger.info(
    {
      storage: config.databaseUrl ? 'postgres' : `sqlite (${config.dataDir})`,
      openapi: `${config.publicUrl}/v2/openapi.json`,
    },
    'slotline is ready',
  );
}
