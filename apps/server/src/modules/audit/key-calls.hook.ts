import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { describeFailure } from '../../lib/describe-failure.js';
import { auditContext } from './audit-context.js';

/**
 * Every call made with an API key lands in the audit log under the key's name (issue 20), reads
 * included: one `call` entry with the method, the route template (never ids) and the answer's
 * status, written after the answer went out. The changes the call made have their own entries.
 */
export function registerKeyCallAudit(app: FastifyInstance, deps: Pick<AppDeps, 'audit' | 'logger'>): void {
  app.addHook('onResponse', async (request, reply) => {
    const key = request.apiKey;
    if (!key) return;
    const route = request.routeOptions.url ?? 'unmatched';
    try {
      await deps.audit.record(auditContext(request), {
        organizationId: key.organizationId,
        resource: 'apiCall',
        resourceId: `${request.method} ${route}`,
        action: 'call',
        after: { method: request.method, route, status: reply.statusCode },
      });
    } catch (error) {
      deps.logger.warn({ failure: describeFailure(error), apiKeyId: key.id, route }, 'could not record an API key call in the audit log');
    }
  });
}
