import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CurrentUserSchema } from '@plinth/shared';
import { presentCurrentUser } from './users.service.js';

/** Who is signed in (the console asks on start). */
export function currentUserRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/auth', { config: { allowBeforeTwoFactor: true }, schema: { tags: ['auth'], response: { 200: CurrentUserSchema } } }, async (request) =>
      presentCurrentUser(request.user),
    );
  };
}
