import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CreatedHardwareTokenSchema, CreateHardwareTokenBody, HardwareTokenListSchema, IdParams, OkSchema } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { auditContext } from '../audit/audit-context.js';
import { authorizeHardware } from '../access/hardware-access.js';
import { createHardwareToken, deleteHardwareToken, findHardwareToken, listHardwareTokens } from './hardware-tokens.service.js';

/** A board's tokens (its MQTT password): create (shown once), list, delete. */
export function hardwareTokenRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = deps;
    const tags = ['auth'];

    app.post(
      '/auth/hardware',
      { schema: { tags, body: CreateHardwareTokenBody, response: { 200: CreatedHardwareTokenSchema } } },
      async (request) => {
        await authorizeHardware(db, await request.grants(), { hardwareId: request.body.hardwareId, right: 'createToken' });
        return createHardwareToken(deps, request.body.hardwareId, { name: request.body.name, audit: auditContext(request) });
      },
    );
    app.get('/auth/hardware/:id', { schema: { tags, params: IdParams, response: { 200: HardwareTokenListSchema } } }, async (request) => {
      await authorizeHardware(db, await request.grants(), { hardwareId: request.params.id, right: 'createToken' });
      return { tokens: await listHardwareTokens(deps, request.params.id) };
    });
    app.delete(
      '/auth/hardware/delete-token/:id',
      { schema: { tags, params: IdParams, response: { 200: OkSchema } } },
      async (request) => {
        const token = await findHardwareToken(deps, request.params.id);
        await authorizeHardware(db, await request.grants(), { hardwareId: token.hardwareId, right: 'deleteToken' });
        await deleteHardwareToken(deps, token, auditContext(request));
        return { ok: true as const };
      },
    );
  };
}
