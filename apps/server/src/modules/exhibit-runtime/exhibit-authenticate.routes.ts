import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ExhibitAuthenticateBody, ExhibitCredentialSchema } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { authenticateExhibit } from './exhibit-tokens.service.js';

/** The exhibit SDK's sign-in: exhibit id and token for a short-lived credential (no user session). */
export function exhibitAuthenticateRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/auth/exhibit/authenticate',
      { schema: { tags: ['exhibit runtime'], body: ExhibitAuthenticateBody, response: { 200: ExhibitCredentialSchema } } },
      async (request) => authenticateExhibit(deps, request.body.exhibitId, request.body.token),
    );
  };
}
