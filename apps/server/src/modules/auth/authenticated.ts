import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { AppError } from '../../lib/app-error.js';

/**
 * A group of routes that need a signed-in user, declared once instead of in each handler: its
 * hook answers 401 Unauthorized before any handler of the group runs. The hook runs after the
 * route's schemas checked the input (a malformed call answers 400 whether or not it is signed in,
 * as when each handler checked), so handlers read `request.user` and `request.grants()` freely.
 * A user an organization makes enrol in two-factor sign-in first gets 403
 * TwoFactorEnrolmentRequired from every route but those marked `allowBeforeTwoFactor`.
 */
export function authenticated(routes: (app: FastifyInstance) => Promise<void>): FastifyPluginAsync {
  return async (app) => {
    app.addHook('preHandler', async (request) => {
      if (!request.sessionUser) throw new AppError('Unauthorized');
      if (request.sessionUser.mustEnrolTwoFactor && !request.routeOptions.config.allowBeforeTwoFactor) {
        throw new AppError('TwoFactorEnrolmentRequired');
      }
    });
    await app.register(routes);
  };
}

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyContextConfig {
    /** Open to a signed-in user who must still enrol in two-factor sign-in (who they are, the enrolment itself). */
    allowBeforeTwoFactor?: boolean;
  }
}
