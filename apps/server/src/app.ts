import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyServerFactory } from 'fastify';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import websocket from '@fastify/websocket';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { SOCKET_MAX_MESSAGE_BYTES, type ErrorBody } from '@plinth/shared';
import type { Config } from './config.js';
import type { AppDeps } from './deps.js';
import { isDatabaseUnavailable } from './db/errors.js';
import { AppError } from './lib/app-error.js';
import { refuseCrossSiteRequest } from './lib/cross-site.js';
import { logFailedRequest, RequestLogController } from './lib/request-log.js';
import { refuseUnsafeText } from './lib/unsafe-input.js';
import { registerKeyCallAudit } from './modules/audit/key-calls.hook.js';
import { registerSessionHook } from './modules/auth/session.hook.js';
import { apiRoutes } from './modules/index.js';
import { operationsRoutes } from './modules/operations/operations.routes.js';
import { socketRoutes } from './realtime/socket.routes.js';

export const API_PREFIX = '/api/v1';

/** Cache-Control of the console's hashed build files (apps/web/dist/assets). */
export const IMMUTABLE_ASSET = 'public, max-age=31536000, immutable';

const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export type BuildAppOptions = {
  /** The HTTP server the app answers on (taken at the start of start-up: lib/http-listener.ts). */
  serverFactory?: FastifyServerFactory;
};

/** Builds the whole HTTP side: REST under /api/v1, the /ws socket, OpenAPI, health, readiness and metrics, and the console. */
export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    serverFactory: options.serverFactory,
    loggerInstance: deps.logger as FastifyBaseLogger,
    // Only listed proxies may say who the client is (X-Forwarded-For); none by default.
    trustProxy: deps.config.TRUST_PROXY.length > 0 ? deps.config.TRUST_PROXY : false,
    bodyLimit: 1024 * 1024,
    logController: new RequestLogController({
      disableRequestLogging: deps.config.LOG_LEVEL !== 'debug' && deps.config.LOG_LEVEL !== 'trace',
    }),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await registerPlugins(app);

  app.addHook('onRequest', refuseCrossSiteRequest);
  // Labelled by route template (never an id) and status: a bounded set of series.
  app.addHook('onResponse', async (request, reply) => {
    deps.metrics.httpDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  registerSessionHook(app, deps);
  registerKeyCallAudit(app, deps);
  app.addHook('preValidation', refuseUnsafeText);
  const headers = securityHeaders(deps.config);
  app.addHook('onSend', async (_request, reply, payload) => {
    void reply.headers(headers);
    return payload;
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body } = toErrorResponse(error);
    if (status >= 500) logFailedRequest(request, status, error);
    if (error instanceof AppError && error.headers) void reply.headers(error.headers);
    void reply.status(status).send(body);
  });

  await app.register(operationsRoutes(deps));
  await app.register(apiRoutes(deps), { prefix: API_PREFIX });
  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());
  app.get('/api/docs/json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(socketRoutes(deps));
  await registerConsole(app, deps.config);
  return app as unknown as FastifyInstance;
}

/** Cookies, rate limits (per route only), websockets, multipart uploads and the OpenAPI description. */
async function registerPlugins(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => new AppError('TooManyRequests'),
  });
  await app.register(websocket, { options: { maxPayload: SOCKET_MAX_MESSAGE_BYTES } });
  await app.register(multipart, { limits: { fileSize: 512 * 1024 * 1024, files: 20 } });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Plinth API',
        version: '0.1.0',
        description:
          'The Plinth REST API. A call sends the session cookie of a person, or (where `bearerAuth` is listed) an organization\'s API key as `Authorization: Bearer`. Errors answer { response, code, message }.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, for GET /metrics on the main port (docs/operations.md).' },
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'plinth_session', description: 'The session of a person signed in (POST /api/v1/auth/user/login).' },
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An API key of an organization (`plk_…`), created by its managers: `Authorization: Bearer <key>`. It holds its role on the organization or its chosen sites, is throttled per key (API_KEY_RATE_LIMIT a minute) and never manages users or keys (docs/security.md, API keys).',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
}

/** The headers of every answer: no sniffing, no framing, and the console's content security policy. */
function securityHeaders(config: Config): Record<string, string> {
  const analyticsOrigin = config.ANALYTICS_URL ? new URL(config.ANALYTICS_URL).origin : '';
  const contentSecurityPolicy = [
    "default-src 'self'",
    "script-src 'self'",
    // Mantine sets inline style attributes.
    "style-src 'self' 'unsafe-inline'",
    // Profile pictures come from the identity provider.
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src 'self' ${analyticsOrigin}`.trim(),
    // The site report and the content manager are external pages shown in frames.
    'frame-src https: http:',
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'x-frame-options': 'DENY',
    'content-security-policy': contentSecurityPolicy,
  };
}

/** The built console (every other path answers its index.html), or a note saying how to build it. */
async function registerConsole(app: FastifyInstance, config: Config): Promise<void> {
  const webDist = config.WEB_DIST ? path.resolve(config.WEB_DIST) : DEFAULT_WEB_DIST;
  const indexHtml = path.join(webDist, 'index.html');
  if (!fs.existsSync(indexHtml)) {
    app.get('/', { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type('text/plain')
        .send('The Plinth console is not built. Run `npm run build` (or `npm start`), then reload.'),
    );
    return;
  }
  // The build writes a Brotli and a gzip copy of each text file (apps/web/precompress.ts): sent as
  // they are to browsers that accept them. Files under assets/ carry their content's hash in their
  // name, so a browser keeps them for a year without asking again; index.html is always asked again.
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    preCompressed: true,
    setHeaders: (reply, filePath) => {
      if (path.relative(webDist, filePath).startsWith(`assets${path.sep}`)) reply.header('cache-control', IMMUTABLE_ASSET);
    },
  });
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    if (request.url.startsWith('/api/')) throw new AppError('NotFound');
    const file = request.url.split('?')[0]!.replace(/^\/+/, '');
    if (file && !file.includes('..') && fs.existsSync(path.join(webDist, file)) && fs.statSync(path.join(webDist, file)).isFile()) {
      return reply.sendFile(file);
    }
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
  });
}

/** The one place that maps errors to HTTP status and the { response, code, message } body. */
export function toErrorResponse(error: unknown): { status: number; body: ErrorBody } {
  if (error instanceof AppError) return { status: error.status, body: error.toBody() };
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = (error as { validationContext?: string }).validationContext ?? 'body';
    const parts = error.validation.map((issue) => {
      const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || where;
      const message = issue.message === 'InvalidEmail' ? 'Please enter a valid email address' : issue.message;
      return `${field}: ${message}`;
    });
    const onlyEmail = error.validation.length === 1 && error.validation[0]!.message === 'InvalidEmail';
    const message = parts.join('; ');
    return {
      status: 400,
      body: { response: onlyEmail ? 'InvalidEmail' : message, code: onlyEmail ? 'InvalidEmail' : 'ValidationError', message },
    };
  }
  if (isDatabaseUnavailable(error)) {
    const message = 'The database cannot be reached right now. Try again in a moment.';
    return { status: 503, body: { response: 'ServiceUnavailable', code: 'ServiceUnavailable', message } };
  }
  if (isResponseSerializationError(error)) {
    return { status: 500, body: { response: 'InternalServer', code: 'InternalServer', message: 'The answer did not match its schema.' } };
  }
  const fastifyError = error as FastifyError;
  const status = fastifyError.statusCode ?? 500;
  if (status === 404) return { status, body: { response: 'NotFound', code: 'NotFound', message: 'Not found' } };
  if (status === 413) {
    return { status, body: { response: 'The upload is too large.', code: 'ValidationError', message: 'The upload is too large.' } };
  }
  if (status === 429) return { status, body: new AppError('TooManyRequests').toBody() };
  if (status >= 400 && status < 500) {
    const message = fastifyError.message || 'Bad request';
    return { status, body: { response: message, code: 'ValidationError', message } };
  }
  return { status: 500, body: new AppError('InternalServer').toBody() };
}
