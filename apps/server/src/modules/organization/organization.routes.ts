import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateOrganizationBody,
  IdParams,
  OkSchema,
  OrganizationListSchema,
  OrganizationSchema,
  SettingParams,
  SettingSchema,
  SettingValueBody,
  SiteListSchema,
  UpdateOrganizationBody,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { contentManagerRoutes } from '../content-manager/content-manager.routes.js';
import {
  createOrganization,
  deleteOrganization,
  getOrganization,
  listOrganizations,
  listOrganizationSites,
  updateOrganization,
  updateOrganizationSetting,
} from './organization.service.js';

/** Organizations: list, create (platform admins), read, rename, delete, settings and their sites. */
export function organizationRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['organization'];
    const base = '/org-management/organization';

    app.get(base, { schema: { tags, response: { 200: OrganizationListSchema } } }, async (request) =>
      listOrganizations(deps, await request.grants()),
    );

    app.post(
      base,
      { schema: { tags, body: CreateOrganizationBody, response: { 200: OrganizationSchema } } },
      async (request) => createOrganization(deps, await request.grants(), request.body.name),
    );

    app.get(
      `${base}/:id`,
      { schema: { tags, params: IdParams, response: { 200: OrganizationSchema } } },
      async (request) => getOrganization(deps, await request.grants(), request.params.id),
    );

    app.put(
      `${base}/:id`,
      { schema: { tags, params: IdParams, body: UpdateOrganizationBody, response: { 200: OrganizationSchema } } },
      async (request) => updateOrganization(deps, await request.grants(), request.params.id, request.body.name),
    );

    app.delete(`${base}/:id`, { schema: { tags, params: IdParams, response: { 200: OkSchema } } }, async (request) => {
      await deleteOrganization(deps, await request.grants(), request.params.id);
      return { ok: true as const };
    });

    app.put(
      `${base}/:id/setting/:idString`,
      { schema: { tags, params: SettingParams, body: SettingValueBody, response: { 200: SettingSchema } } },
      async (request) =>
        updateOrganizationSetting(
          deps,
          await request.grants(),
          request.params.id,
          request.params.idString,
          request.body.value,
        ),
    );

    app.get(
      `${base}/:id/sites`,
      { schema: { tags, params: IdParams, response: { 200: SiteListSchema } } },
      async (request) => listOrganizationSites(deps, await request.grants(), request.params.id),
    );

    await app.register(contentManagerRoutes(deps));
  };
}
