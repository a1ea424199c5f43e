import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { AppError } from '../../lib/app-error.js';

/**
 * A group of routes that need a signed-in user, declared once instead of in each handler: its
 * hook answers 401 Unauthorized before any handler of the group runs. The hook runs after the
 * route's schemas checked the input (a malformed call answers 400 whether or not it is signed in,
 * as when each handler checked), so handlers read `request.user` and `request.grants()` freely.
 */
export function authenticated(routes: (app: FastifyInstance) => Promise<void>): FastifyPluginAsync {
  return async (app) => {
    app.addHook('preHandler', async (request) => {
      if (!request.sessionUser) throw new AppError('Unauthorized');
    });
    await app.register(routes);
  };
}
