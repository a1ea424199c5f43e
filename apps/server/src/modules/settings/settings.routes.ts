import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SettingParams, SettingSchema, SettingValueBody, SiteIdParams, SiteSettingParams, SiteSettingsSchema } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { auditContext } from '../audit/audit-context.js';
import { getSiteSettings, updateSetting } from './settings.service.js';

/**
 * Organization and site settings (spec 7: organization service). One service saves both; the
 * routes only say how each scope's path names its organization or site. An organization's settings
 * are read with the organization itself.
 */
export function settingsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const body = SettingValueBody;
    const response = { 200: SettingSchema };

    const organizationPath = '/org-management/organization/:id/setting/:idString';
    app.put(organizationPath, { schema: { tags: ['organization'], params: SettingParams, body, response } }, async (request) => {
      const owner = { scope: 'organization' as const, id: request.params.id };
      return updateSetting(deps, await request.grants(), { owner, idString: request.params.idString, value: request.body.value, audit: auditContext(request) });
    });

    const sitePath = '/org-management/site/setting/:siteId/:idString';
    app.put(sitePath, { schema: { tags: ['site'], params: SiteSettingParams, body, response } }, async (request) => {
      const owner = { scope: 'site' as const, id: request.params.siteId };
      return updateSetting(deps, await request.grants(), { owner, idString: request.params.idString, value: request.body.value, audit: auditContext(request) });
    });

    app.get(
      '/org-management/site/setting/:siteId',
      { schema: { tags: ['site'], params: SiteIdParams, response: { 200: SiteSettingsSchema } } },
      async (request) => getSiteSettings(deps, await request.grants(), request.params.siteId),
    );
  };
}
