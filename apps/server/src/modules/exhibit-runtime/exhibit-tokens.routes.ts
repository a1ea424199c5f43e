import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CreateExhibitTokenBody, CreatedExhibitTokenSchema, ExhibitTokenListSchema, IdParams, OkSchema } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { actorOf } from '../auth/actor.js';
import { auditContext } from '../audit/audit-context.js';
import { AppError } from '../../lib/app-error.js';
import { authorizeExhibit } from '../access/exhibit-access.js';
import { createExhibitToken, deleteExhibitToken, findExhibitToken, listExhibitTokens } from './exhibit-tokens.service.js';

/** An exhibit's tokens (its auth tab): create (shown once), list, delete. */
export function exhibitTokenRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['exhibit runtime'];

    app.post('/auth/exhibit', { schema: { tags, body: CreateExhibitTokenBody, response: { 200: CreatedExhibitTokenSchema } } }, async (request) => {
      const { exhibitId, name } = request.body;
      await authorizeExhibit(deps.db, await request.grants(), { exhibitId, right: 'createToken' });
      return createExhibitToken(deps, exhibitId, { name, by: actorOf(request).label, audit: auditContext(request) });
    });

    app.get('/auth/exhibit/:id', { schema: { tags, params: IdParams, response: { 200: ExhibitTokenListSchema } } }, async (request) => {
      await authorizeExhibit(deps.db, await request.grants(), { exhibitId: request.params.id, right: 'createToken' });
      const tokens = await listExhibitTokens(deps, request.params.id);
      return { tokens: tokens.map((t) => ({ id: t.id, name: t.name, createdAt: t.createdAt.toISOString() })) };
    });

    app.delete('/auth/exhibit/delete-token/:id', { schema: { tags, params: IdParams, response: { 200: OkSchema } } }, async (request) => {
      const token = await findExhibitToken(deps, request.params.id);
      if (!token) throw new AppError('NotFound', 'The token does not exist.');
      await authorizeExhibit(deps.db, await request.grants(), { exhibitId: token.exhibitId, right: 'deleteToken' });
      await deleteExhibitToken(deps, token, { by: actorOf(request).label, audit: auditContext(request) });
      return { ok: true as const };
    });
  };
}
