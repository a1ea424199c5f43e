import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';

export function siteRoutes(_deps: AppDeps): FastifyPluginAsyncZod {
  return async () => {};
}
