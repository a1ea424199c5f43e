import http, { type RequestListener } from 'node:http';
import type { Duplex } from 'node:stream';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyError } from 'fastify';
import { WebSocketServer } from 'ws';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { describeFailure } from '../../lib/describe-failure.js';
import { GUMBAND_PORT_OFFSETS, type GumbandService } from './gumband-ports.js';
import { GUMBAND_PING_MS, GumbandCodec } from './gumband-socket.js';
import { gumbandRoutes } from './gumband.routes.js';

/**
 * Gumband compatibility mode (GUMBAND_COMPAT=1, docs/gumband-compatibility.md): the ports the
 * Gumband SDK reaches with `endpoint: 'custom'`, one per Gumband service, each serving every
 * call under /api/v1 from this process and its database. The socket port hands its sockets to
 * the exhibit gateway with a translation (gumband-socket.ts); nothing else in the server knows
 * Gumband.
 */


const SOCKET_PATH = '/api/v1/ws';

export type GumbandCompat = { ports: Record<GumbandService, number>; close: () => Promise<void> };

export async function startGumbandCompat(deps: AppDeps): Promise<GumbandCompat> {
  const { config, logger } = deps;
  let handler: RequestListener | null = null;
  const app = Fastify({
    bodyLimit: 5 * 1024 * 1024,
    trustProxy: config.TRUST_PROXY,
    serverFactory: (fastifyHandler) => {
      handler = fastifyHandler;
      return http.createServer();
    },
  });
  await app.register(cookie);
  app.setErrorHandler((error: FastifyError | AppError, _request, reply) => {
    if (error instanceof AppError) return reply.code(error.status).send({ response: 'error', code: error.code, message: error.message });
    if (typeof error.statusCode === 'number' && error.statusCode < 500) return reply.code(error.statusCode).send({ response: 'error', message: error.message });
    logger.warn({ failure: describeFailure(error) }, 'Gumband compatibility call failed');
    return reply.code(500).send({ response: 'error', message: 'The server could not handle the call.' });
  });
  await app.register(gumbandRoutes(deps), { prefix: '/api/v1' });
  await app.ready();

  const sockets = new WebSocketServer({ noServer: true });
  const pinger = setInterval(() => {
    for (const socket of sockets.clients) if (socket.readyState === socket.OPEN) socket.ping();
  }, GUMBAND_PING_MS);
  pinger.unref();

  const servers: http.Server[] = [];
  const ports = {} as GumbandCompat['ports'];
  const close = async () => {
    clearInterval(pinger);
    for (const socket of sockets.clients) socket.terminate();
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    })));
    await app.close();
  };
  try {
    for (const [service, offset] of Object.entries(GUMBAND_PORT_OFFSETS)) {
      const server = http.createServer(handler!);
      if (service === 'ws') server.on('upgrade', (request, socket: Duplex, head) => upgrade(deps, { sockets, request, socket, head }));
      servers.push(server);
      ports[service as GumbandService] = await listen(server, config.GUMBAND_COMPAT_BASE_PORT + offset, config.HOST);
    }
  } catch (error) {
    await close();
    throw error;
  }
  logger.info(`Gumband compatibility on ports ${config.GUMBAND_COMPAT_BASE_PORT}-${config.GUMBAND_COMPAT_BASE_PORT + 10} (socket ${ports.ws})`);
  return { ports, close };
}

function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as { port: number }).port);
    });
  });
}

type Upgrade = { sockets: WebSocketServer; request: http.IncomingMessage; socket: Duplex; head: Buffer };

/** A socket on /api/v1/ws becomes a gateway connection speaking Gumband; anything else is refused. */
function upgrade(deps: AppDeps, { sockets, request, socket, head }: Upgrade): void {
  const path = (request.url ?? '').split('?')[0];
  if (path !== SOCKET_PATH) {
    socket.destroy();
    return;
  }
  sockets.handleUpgrade(request, socket, head, (ws) => {
    deps.exhibitGateway.acceptTranslated(ws, request.socket.remoteAddress ?? 'unknown', new GumbandCodec(deps, ws));
  });
}
