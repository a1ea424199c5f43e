import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateOrganizationBody,
  IdParams,
  OkSchema,
  OrganizationListSchema,
  OrganizationSchema,
  SiteListSchema,
  UpdateOrganizationBody,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { auditContext } from '../audit/audit-context.js';
import { contentManagerRoutes } from '../content-manager/content-manager.routes.js';
import {
  createOrganization,
  deleteOrganization,
  getOrganization,
  listOrganizations,
  listOrganizationSites,
  updateOrganization,
} from './organization.service.js';

/** Organizations: list, create (platform admins), read, rename, delete, and their sites (settings: settings.routes.ts). */
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
      async (request) => createOrganization(deps, await request.grants(), { name: request.body.name, audit: auditContext(request) }),
    );

    app.get(
      `${base}/:id`,
      { schema: { tags, params: IdParams, response: { 200: OrganizationSchema } } },
      async (request) => getOrganization(deps, await request.grants(), request.params.id),
    );

    app.put(
      `${base}/:id`,
      { schema: { tags, params: IdParams, body: UpdateOrganizationBody, response: { 200: OrganizationSchema } } },
      async (request) => updateOrganization(deps, await request.grants(), { id: request.params.id, name: request.body.name, audit: auditContext(request) }),
    );

    app.delete(`${base}/:id`, { schema: { tags, params: IdParams, response: { 200: OkSchema } } }, async (request) => {
      await deleteOrganization(deps, await request.grants(), { id: request.params.id, audit: auditContext(request) });
      return { ok: true as const };
    });

    app.get(
      `${base}/:id/sites`,
      { schema: { tags, params: IdParams, response: { 200: SiteListSchema } } },
      async (request) => listOrganizationSites(deps, await request.grants(), request.params.id),
    );

    await app.register(contentManagerRoutes(deps));
  };
}
