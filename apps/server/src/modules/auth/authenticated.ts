import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import { PERSON_ONLY_MESSAGE } from './session.hook.js';

/** Whether the group's routes answer API keys (issue 20) besides people. */
export type AuthenticatedOptions = { apiKeys: boolean };

/** How the OpenAPI description says a route is called: the session cookie, or also an API key. */
type Security = Record<string, string[]>[];
const PERSON_SECURITY: Security = [{ sessionCookie: [] }];
const KEY_SECURITY: Security = [{ sessionCookie: [] }, { bearerAuth: [] }];

/**
 * A group of routes that need a signed-in user, declared once instead of in each handler: its
 * hook answers 401 Unauthorized before any handler of the group runs. The hook runs after the
 * route's schemas checked the input (a malformed call answers 400 whether or not it is signed in,
 * as when each handler checked), so handlers read `request.user` and `request.grants()` freely.
 * A user an organization makes enrol in two-factor sign-in first gets 403
 * TwoFactorEnrolmentRequired from every route but those marked `allowBeforeTwoFactor`.
 * A call made with an API key passes only in a group open to keys, on a route not marked
 * `personOnly` (403 otherwise); the OpenAPI description marks those routes `bearerAuth`.
 */
export function authenticated(routes: (app: FastifyInstance) => Promise<void>, options: AuthenticatedOptions): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRoute', (route) => {
      const keys = options.apiKeys && !route.config?.personOnly;
      route.schema = { ...route.schema, security: keys ? KEY_SECURITY : PERSON_SECURITY };
    });
    app.addHook('preHandler', async (request) => {
      if (request.apiKey) {
        if (!options.apiKeys || request.routeOptions.config.personOnly) throw new AppError('Forbidden', PERSON_ONLY_MESSAGE);
        return;
      }
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
    /** Refused to API keys in a group open to them (e.g. a person's own live-log lease). */
    personOnly?: boolean;
  }
}
