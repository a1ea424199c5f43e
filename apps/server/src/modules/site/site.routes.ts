import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateSiteBody,
  IdParams,
  OkSchema,
  SiteListSchema,
  SiteSchema,
  UpdateSiteBody,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { auditContext } from '../audit/audit-context.js';
import {
  createSite,
  deleteSite,
  getSite,
  listSites,
  updateSite,
} from './site.service.js';

/** Sites: list, create (organization managers), read, rename, delete (site managers); settings: settings.routes.ts. */
export function siteRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['site'];
    const base = '/org-management/site';

    app.get(base, { schema: { tags, response: { 200: SiteListSchema } } }, async (request) =>
      listSites(deps, await request.grants()),
    );

    app.post(base, { schema: { tags, body: CreateSiteBody, response: { 200: SiteSchema } } }, async (request) =>
      createSite(deps, await request.grants(), { ...request.body, audit: auditContext(request) }),
    );

    app.get(`${base}/:id`, { schema: { tags, params: IdParams, response: { 200: SiteSchema } } }, async (request) =>
      getSite(deps, await request.grants(), request.params.id),
    );

    app.put(
      `${base}/:id`,
      { schema: { tags, params: IdParams, body: UpdateSiteBody, response: { 200: SiteSchema } } },
      async (request) => updateSite(deps, await request.grants(), { id: request.params.id, name: request.body.name, audit: auditContext(request) }),
    );

    app.delete(`${base}/:id`, { schema: { tags, params: IdParams, response: { 200: OkSchema } } }, async (request) => {
      await deleteSite(deps, await request.grants(), { id: request.params.id, audit: auditContext(request) });
      return { ok: true as const };
    });
  };
}
