import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiKeyListSchema, ApiKeySchema, CreateApiKeyBody, CreatedApiKeySchema, IdParams } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { auditContext } from '../audit/audit-context.js';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service.js';

/**
 * An organization's API keys (issue 20): list, create (the value shown once), revoke. Its managers
 * and platform admins only, and only as themselves: this group refuses API keys (modules/index.ts).
 */
export function apiKeyRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['api keys'];
    const path = '/org-management/organization/:id/api-keys';

    app.get(path, { schema: { tags, params: IdParams, response: { 200: ApiKeyListSchema } } }, async (request) => ({
      keys: await listApiKeys(deps, await request.grants(), request.params.id),
    }));

    app.post(path, { schema: { tags, params: IdParams, body: CreateApiKeyBody, response: { 200: CreatedApiKeySchema } } }, async (request) => {
      const by = { id: request.user.id, email: request.user.email };
      return createApiKey(deps, await request.grants(), { organizationId: request.params.id, input: request.body, by, audit: auditContext(request) });
    });

    app.delete('/org-management/api-keys/:id', { schema: { tags, params: IdParams, response: { 200: ApiKeySchema } } }, async (request) => {
      const by = { id: request.user.id, email: request.user.email };
      return revokeApiKey(deps, await request.grants(), { id: request.params.id, by, audit: auditContext(request) });
    });
  };
}
