import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateOrganizationPermissionBody,
  CreateSitePermissionBody,
  Id,
  IdParams,
  OkSchema,
  OrganizationPermissionQuery,
  PermissionListSchema,
  PermissionSchema,
  UpdatePermissionBody,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { requireUser } from '../../lib/request-user.js';
import {
  addOrganizationPermission,
  addSitePermission,
  deleteOrganizationPermission,
  deleteSitePermission,
  listOrganizationPermissions,
  listSitePermissions,
  updateOrganizationPermission,
  updateSitePermission,
} from './permission.service.js';

const SiteIdParams = z.object({ siteId: Id });

/** Users and their roles on organizations and sites (spec: organization service, permission rows). */
export function permissionRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['permission'];
    const base = '/org-management/permission';

    app.get(
      `${base}/organization`,
      { schema: { tags, querystring: OrganizationPermissionQuery, response: { 200: PermissionListSchema } } },
      async (request) => {
        requireUser(request);
        return listOrganizationPermissions(deps, await request.grants(), request.query.organizationId);
      },
    );

    app.post(
      `${base}/organization`,
      { schema: { tags, body: CreateOrganizationPermissionBody, response: { 200: PermissionSchema } } },
      async (request) => {
        const user = requireUser(request);
        return addOrganizationPermission(deps, await request.grants(), user, request.body, request.ip);
      },
    );

    app.put(
      `${base}/organization/:id`,
      { schema: { tags, params: IdParams, body: UpdatePermissionBody, response: { 200: PermissionSchema } } },
      async (request) => {
        requireUser(request);
        return updateOrganizationPermission(deps, await request.grants(), request.params.id, request.body.role);
      },
    );

    app.delete(
      `${base}/organization/:id`,
      { schema: { tags, params: IdParams, response: { 200: OkSchema } } },
      async (request) => {
        requireUser(request);
        await deleteOrganizationPermission(deps, await request.grants(), request.params.id);
        return { ok: true as const };
      },
    );

    app.get(
      `${base}/site/:siteId`,
      { schema: { tags, params: SiteIdParams, response: { 200: PermissionListSchema } } },
      async (request) => {
        requireUser(request);
        return listSitePermissions(deps, await request.grants(), request.params.siteId);
      },
    );

    app.post(
      `${base}/site`,
      { schema: { tags, body: CreateSitePermissionBody, response: { 200: PermissionSchema } } },
      async (request) => {
        const user = requireUser(request);
        return addSitePermission(deps, await request.grants(), user, request.body, request.ip);
      },
    );

    app.put(
      `${base}/site/:id`,
      { schema: { tags, params: IdParams, body: UpdatePermissionBody, response: { 200: PermissionSchema } } },
      async (request) => {
        requireUser(request);
        return updateSitePermission(deps, await request.grants(), request.params.id, request.body.role);
      },
    );

    app.delete(
      `${base}/site/:id`,
      { schema: { tags, params: IdParams, response: { 200: OkSchema } } },
      async (request) => {
        requireUser(request);
        await deleteSitePermission(deps, await request.grants(), request.params.id);
        return { ok: true as const };
      },
    );
  };
}
