import http from 'node:http';
import type { Logger } from 'pino';
import type { Metrics } from '../../lib/metrics.js';
import { listenOrExplain } from '../../lib/port-conflict.js';
import { isMetricsToken } from './metrics-access.js';

export type MetricsListener = { port: number; close: () => Promise<void> };

/**
 * `GET /metrics` on its own port (METRICS_PORT), away from the public one: a firewall keeps it
 * to the monitoring network. With METRICS_TOKEN set, the bearer token is asked here too.
 */
export async function startMetricsListener(options: {
  metrics: Metrics;
  logger: Logger;
  listen: { port: number; host: string; token?: string };
}): Promise<MetricsListener> {
  const { metrics, listen } = options;
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: Prometheus scrapes /metrics');
      return;
    }
    if (listen.token && !isMetricsToken(request.headers.authorization, listen.token)) {
      response.writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer' }).end('METRICS_TOKEN is required as a bearer token');
      return;
    }
    metrics.render().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(text),
      (error: unknown) => {
        options.logger.warn({ err: error }, 'could not render the metrics');
        response.writeHead(500).end();
      },
    );
  });
  await listenOrExplain(server, { use: 'metrics', port: listen.port, host: listen.host });
  const port = (server.address() as { port: number }).port;
  options.logger.info(`Metrics for Prometheus at http://${listen.host}:${port}/metrics`);
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
