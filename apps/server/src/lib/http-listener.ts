import http from 'node:http';
import { listenOrExplain } from './port-conflict.js';
import type { Readiness } from './readiness.js';

/**
 * The HTTP port, taken first thing at start-up: a port conflict is told at once (not after the
 * database opened), and while the node starts (migrations, the broker, the gateways) a load
 * balancer gets `GET /readyz` 503 `starting` instead of a refused connection. Once the app is
 * built, every request goes to it (`handOver`).
 */
export type HttpListener = {
  server: http.Server;
  port: number;
  /** From now on the app answers every request. */
  handOver: (handler: http.RequestListener) => void;
  /** Stops accepting connections and waits for the open ones to end. */
  close: () => Promise<void>;
};

export async function openHttpListener(options: { port: number; host: string; readiness: Readiness }): Promise<HttpListener> {
  const whileStarting: http.RequestListener = (request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path === '/healthz') return answerJson(response, 200, { status: 'ok' });
    if (path === '/readyz') {
      void options.readiness.report().then((report) => answerJson(response, report.status === 'ready' ? 200 : 503, report));
      return;
    }
    response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '5' });
    response.end('Plinth is starting. Try again in a moment.');
  };
  // As Fastify sets its own server: no request timeout (uploads of large files), long keep-alive.
  const server = http.createServer({ requestTimeout: 0 }, whileStarting);
  server.keepAliveTimeout = 72_000;
  await listenOrExplain(server, { use: 'http', port: options.port, host: options.host });
  return {
    server,
    port: (server.address() as { port: number }).port,
    handOver: (handler) => {
      server.off('request', whileStarting);
      server.on('request', handler);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

function answerJson(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}
