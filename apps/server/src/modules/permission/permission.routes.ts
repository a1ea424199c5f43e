import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';

export function permissionRoutes(_deps: AppDeps): FastifyPluginAsyncZod {
  return async () => {};
}
