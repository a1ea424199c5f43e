import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams, OkSchema } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { signOutUser } from './user-admin.service.js';

/** Account administration by platform admins. */
export function userAdminRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['auth'];

    app.delete(
      '/auth/user/:id/sessions',
      {
        schema: {
          tags,
          summary: 'Signs a user out everywhere (platform admins only); their open sockets close at once.',
          params: IdParams,
          response: { 200: OkSchema },
        },
      },
      async (request) => {
        await signOutUser(deps, request.user, request.params.id);
        return { ok: true as const };
      },
    );
  };
}
