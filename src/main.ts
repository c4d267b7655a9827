// Process entry for `slotline serve`: config, migrations, app, listen, graceful close.
import pino from 'pino';
import { buildApp } from './app.ts';
import { openContext } from './bootstrap.ts';
import type { Config } from './config.ts';
import { startDispatchLoop, type DispatchLoop } from './dispatch/loop.ts';
import { startMediaLoop, type MediaLoop } from './dispatch/media-loop.ts';
import { startOutboxLoop, type OutboxLoop } from './dispatch/outbox-loop.ts';
import { smtpMailer } from './modules/outbox/index.ts';
import { pushSender } from './modules/push/index.ts';
import { chatSender } from './modules/alerts/index.ts';
import { startWebhookLoop, type WebhookLoop } from './dispatch/webhook-loop.ts';
import { startMetricsServer, type MetricsServer } from './ops/metrics-server.ts';
import { PromMetrics } from './ops/prom-metrics.ts';
import { readinessOf } from './ops/readiness.ts';
import { scrapeSources } from './ops/scrape-sources.ts';
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
  // Metrics cost a little on every request: collected only when something can read them.
  const metrics = config.metricsPort !== null || config.metricsToken ? new PromMetrics() : null;
  const opened = await openContext(config, {
    onBackgroundError: (err) => logger.error({ err }, 'background job failed'),
    ...(metrics ? { metrics } : {}),
  });
  const { ctx } = opened;
  metrics?.observe(scrapeSources(opened));
  const readiness = readinessOf(ctx, {
    onFailure: (check, err) => logger.warn({ check, err }, 'readiness check failed'),
  });
  const app = await buildApp(ctx, { logger, readiness, metrics });
  let dispatch: DispatchLoop | null = null;
  let webhooks: WebhookLoop | null = null;
  let media: MediaLoop | null = null;
  let outbox: OutboxLoop | null = null;
  let pushes: OutboxLoop | null = null;
  let chats: OutboxLoop | null = null;
  let simulator: SimulatorLoop | null = null;
  let metricsServer: MetricsServer | null = null;
  let closing = false;

  /**
   * The graceful shutdown, bounded by SHUTDOWN_TIMEOUT_MS: readiness fails first, the
   * dispatcher, simulator, webhook, outbox and media loops stop claiming, and after SHUTDOWN_DELAY_MS (the
   * balancer's time to see readiness fail) the listener closes. Requests and uploads under
   * way finish (idle kept-alive connections are closed at once); media jobs under way
   * finish within the bound, and those that cannot are handed back for another process to
   * take at once; the batched meter and key-use writes settle, the database closes. Exit
   * 0, or 1 when the bound cut it short.
   */
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const deadline = Date.now() + config.shutdownTimeoutMs;
    logger.info(
      { signal, delayMs: config.shutdownDelayMs, timeoutMs: config.shutdownTimeoutMs },
      'shutting down: readiness now fails',
    );
    const force = setTimeout(() => {
      logger.error('shutdown bound reached: closing the remaining connections');
      app.server.closeAllConnections();
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    let code = 0;
    try {
      readiness.drain();
      // Claims no more media jobs from now; those under way get what is left of the bound.
      const mediaStopped = media?.stop(Math.max(0, deadline - Date.now() - 3_000));
      await Promise.all([
        dispatch?.stop(),
        simulator?.stop(),
        webhooks?.stop(),
        outbox?.stop(),
        pushes?.stop(),
        chats?.stop(),
      ]);
      if (config.shutdownDelayMs > 0) {
        await sleep(Math.min(config.shutdownDelayMs, deadline - Date.now()));
      }
      logger.info('closing the listener; waiting for requests under way');
      // Stops accepting, closes idle connections, waits for the rest, runs onClose hooks
      // (the meter and key-use flush).
      await app.close();
      const handedBack = (await mediaStopped)?.handedBack ?? 0;
      if (handedBack > 0) logger.info({ handedBack }, 'media jobs under way handed back');
      await metricsServer?.close();
      await opened.close();
      logger.info('shut down cleanly');
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      code = 1;
    } finally {
      clearTimeout(force);
      logger.flush();
      process.exit(code);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  if (metrics && config.metricsPort !== null) {
    metricsServer = await startMetricsServer(metrics, {
      host: config.metricsHost,
      port: config.metricsPort,
      token: config.metricsToken,
      onError: (err) => logger.error({ err }, 'metrics scrape failed'),
    });
    logger.info({ host: config.metricsHost, port: metricsServer.port }, 'metrics listener ready');
  }
  if (config.dispatchIntervalMs > 0) {
    dispatch = startDispatchLoop(ctx, config.dispatchIntervalMs, {
      onPass: (r) => {
        if (r.released > 0) logger.info(r, 'released due items');
        if (r.overdue.unclaimed + r.overdue.unconfirmed > 0) {
          logger.warn(r.overdue, 'failed released tasks past their report deadline');
        }
        if (r.expiredUploads > 0) {
          logger.warn({ failed: r.expiredUploads }, 'failed pending uploads past their deadline');
        }
        if (r.approvals && r.approvals.reminded + r.approvals.escalated > 0) {
          logger.info(r.approvals, 'reminded approvers of items whose window is near');
        }
        if (r.handoffs && r.handoffs.unclaimed + r.handoffs.reportDue > 0) {
          logger.info(r.handoffs, 'told of tasks not claimed and reports due soon');
        }
      },
      onError: (err) => logger.error({ err }, 'dispatch pass failed'),
    });
  }
  // Sends webhooks: woken by this process's own events, polling for everything else.
  if (config.webhookPollMs > 0) {
    webhooks = startWebhookLoop(ctx, {
      pollMs: config.webhookPollMs,
      onError: (err) => logger.error({ err }, 'webhook delivery pass failed'),
    });
  }
  // Sends the outbox's mail: woken by this process's own mail, polling for the rest (other
  // replicas' mail, retries coming due, claims of processes that died).
  if (config.mail.smtpUrl !== null && config.outboxPollMs > 0) {
    const mailer = smtpMailer(config.mail.smtpUrl, config.mail.from, config.mail.messageIdHost);
    const loop = startOutboxLoop(ctx, {
      pollMs: config.outboxPollMs,
      mailer,
      onError: (err) => logger.error({ err }, 'outbox pass failed'),
    });
    outbox = {
      kick: loop.kick,
      stop: async () => {
        await loop.stop();
        mailer.close();
      },
    };
  }
  // Sends the outbox's pushes to devices, through the guarded client (REMOTE_FETCH_ALLOW).
  if (config.outboxPollMs > 0) {
    pushes = startOutboxLoop(ctx, {
      pollMs: config.outboxPollMs,
      channel: 'push',
      mailer: pushSender(ctx.db, { vapid: ctx.vapid, allow: config.remoteFetchAllow }),
      onError: (err) => logger.error({ err }, 'push pass failed'),
    });
    // Sends chat alerts to the hooks companies and operators added, through the same client.
    chats = startOutboxLoop(ctx, {
      pollMs: config.outboxPollMs,
      channel: 'chat',
      mailer: chatSender(ctx.db, ctx.sealer, {
        allow: config.remoteFetchAllow,
        clock: ctx.clock,
      }),
      onError: (err) => logger.error({ err }, 'chat alert pass failed'),
    });
  }
  // Renders carousels and makes thumbnails: woken by this process's own jobs, polling for
  // the rest (other replicas' jobs, retries, leases of processes that died).
  if (config.mediaJobPollMs > 0) {
    media = startMediaLoop(ctx, {
      pollMs: config.mediaJobPollMs,
      leaseMs: config.mediaJobLeaseMs,
      onError: (err) => logger.error({ err }, 'media job failed'),
      onFailed: (job, reason) =>
        logger.warn(
          { kind: job.kind, subjectId: job.subjectId, reason },
          'media job failed for good',
        ),
    });
  }
  // Plays the simulated workers (DECISIONS 6); a pass is one query when there are none.
  if (config.simulator) {
    simulator = startSimulator(ctx, SIMULATOR_INTERVAL_MS, {
      onPass: (r) =>
        (r.claimed > 0 || r.posted > 0) && logger.info(r, 'simulated workers claimed or posted'),
      // An expected refusal of the worker rules: one line, once per report.
      onRefused: (refusal) => logger.warn(refusal, 'simulated worker report refused'),
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
