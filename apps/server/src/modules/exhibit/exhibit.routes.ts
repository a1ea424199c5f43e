import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';

export function exhibitRoutes(_deps: AppDeps): FastifyPluginAsyncZod {
  return async () => {};
}
