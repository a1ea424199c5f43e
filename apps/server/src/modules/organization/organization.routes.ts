import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';

export function organizationRoutes(_deps: AppDeps): FastifyPluginAsyncZod {
  return async () => {};
}
