// The separate metrics listener (METRICS_PORT): GET /metrics and nothing else, on
// METRICS_HOST (loopback by default), so a scraper on the host or a sidecar reads metrics
// that the public port never shows. With METRICS_TOKEN the token is required here too.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PromMetrics } from './prom-metrics.ts';
import { tokenMatches } from './ops.routes.ts';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

const BEARER = /^Bearer +(\S+) *$/i;

export async function startMetricsServer(
  metrics: PromMetrics,
  options: { host: string; port: number; token: string | null; onError?: (err: unknown) => void },
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (options.token !== null) {
      const presented = BEARER.exec(req.headers.authorization ?? '')?.[1];
      if (!tokenMatches(presented, options.token)) {
        res.writeHead(401, { 'www-authenticate': 'Bearer', 'content-type': 'text/plain' });
        res.end('a valid metrics token is required\n');
        return;
      }
    }
    metrics.scrape().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      (err: unknown) => {
        options.onError?.(err);
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
      },
    );
  });
  // A scrape is one short request: no reason to hold idle connections for long.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
