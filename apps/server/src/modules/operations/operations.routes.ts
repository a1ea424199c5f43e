import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HealthSchema, ReadinessSchema } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { isMetricsToken } from './metrics-access.js';

const NO_STORE = { 'cache-control': 'no-store' };

/**
 * What a load balancer and Prometheus call (docs/operations.md), outside /api/v1 and without a
 * session: `/healthz` (the process answers), `/readyz` (this node should get traffic), and
 * `/metrics` on this port only when METRICS_TOKEN is set and METRICS_PORT is not (else it is
 * served on the metrics port, or not at all).
 */
export function operationsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/healthz',
      { schema: { tags: ['operations'], summary: 'The process is alive (no dependency is checked).', response: { 200: HealthSchema } } },
      async (_request, reply) => reply.headers(NO_STORE).send({ status: 'ok' as const }),
    );
    app.get(
      '/readyz',
      {
        schema: {
          tags: ['operations'],
          summary: 'Whether this node should get traffic: 200 when the database, the broker and Redis (when configured) answer; 503 naming the failing part, while starting, and from the first moment of a graceful stop.',
          response: { 200: ReadinessSchema, 503: ReadinessSchema },
        },
      },
      async (_request, reply) => {
        const report = await deps.readiness.report();
        return reply.headers(NO_STORE).status(report.status === 'ready' ? 200 : 503).send(report);
      },
    );
    const { METRICS_TOKEN, METRICS_PORT } = deps.config;
    if (!METRICS_TOKEN || METRICS_PORT !== undefined) return;
    app.get(
      '/metrics',
      {
        schema: {
          tags: ['operations'],
          summary: 'This node’s metrics in Prometheus’ text format (docs/operations.md); send METRICS_TOKEN as a bearer token.',
          security: [{ metricsToken: [] }],
          response: { 200: z.string() },
        },
      },
      async (request, reply) => {
        if (!isMetricsToken(request.headers.authorization, METRICS_TOKEN)) throw new AppError('Unauthorized');
        return reply.headers(NO_STORE).type(deps.metrics.contentType).send(await deps.metrics.render());
      },
    );
  };
}
