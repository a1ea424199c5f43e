import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateSiteBody,
  Id,
  IdParams,
  OkSchema,
  SettingSchema,
  SettingValueBody,
  SiteListSchema,
  SiteSchema,
  SiteSettingParams,
  SiteSettingsSchema,
  UpdateSiteBody,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import {
  createSite,
  deleteSite,
  getSite,
  getSiteSettings,
  listSites,
  updateSite,
  updateSiteSetting,
} from './site.service.js';

const SiteIdParams = z.object({ siteId: Id });

/** Sites: list, create (organization managers), read, rename, delete (site managers), settings. */
export function siteRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['site'];
    const base = '/org-management/site';

    app.get(base, { schema: { tags, response: { 200: SiteListSchema } } }, async (request) =>
      listSites(deps, await request.grants()),
    );

    app.post(base, { schema: { tags, body: CreateSiteBody, response: { 200: SiteSchema } } }, async (request) =>
      createSite(deps, await request.grants(), request.body.organizationId, request.body.name),
    );

    app.get(`${base}/:id`, { schema: { tags, params: IdParams, response: { 200: SiteSchema } } }, async (request) =>
      getSite(deps, await request.grants(), request.params.id),
    );

    app.put(
      `${base}/:id`,
      { schema: { tags, params: IdParams, body: UpdateSiteBody, response: { 200: SiteSchema } } },
      async (request) => updateSite(deps, await request.grants(), request.params.id, request.body.name),
    );

    app.delete(`${base}/:id`, { schema: { tags, params: IdParams, response: { 200: OkSchema } } }, async (request) => {
      await deleteSite(deps, await request.grants(), request.params.id);
      return { ok: true as const };
    });

    app.get(
      `${base}/setting/:siteId`,
      { schema: { tags, params: SiteIdParams, response: { 200: SiteSettingsSchema } } },
      async (request) => getSiteSettings(deps, await request.grants(), request.params.siteId),
    );

    app.put(
      `${base}/setting/:siteId/:idString`,
      { schema: { tags, params: SiteSettingParams, body: SettingValueBody, response: { 200: SettingSchema } } },
      async (request) =>
        updateSiteSetting(deps, await request.grants(), request.params.siteId, request.params.idString, request.body.value),
    );
  };
}
