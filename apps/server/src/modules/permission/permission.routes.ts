import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateOrganizationPermissionBody,
  CreateSitePermissionBody,
  IdParams,
  OkSchema,
  OrganizationPermissionQuery,
  PermissionListSchema,
  PermissionSchema,
  SiteIdParams,
  UpdatePermissionBody,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { auditContext } from '../audit/audit-context.js';
import {
  createPermission,
  deletePermission,
  listPermissions,
  updatePermission,
  type PermissionScope,
} from './permission.service.js';

const base = '/org-management/permission';

/** Where each scope's grants are changed and removed (PUT and DELETE `{path}/:id`, spec 7). */
const GRANT_PATHS: Record<Exclude<PermissionScope, 'exhibit'>, string> = {
  organization: `${base}/organization`,
  site: `${base}/site`,
};

/**
 * Users and their roles on organizations and sites (spec: organization service, permission rows);
 * exhibits have their own paths (exhibit-permission.routes.ts).
 * One service serves every scope; the routes only say how each scope's calls name the
 * organization or site: the list calls and the create bodies differ by scope, the grant calls
 * do not.
 */
export function permissionRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['permission'];
    const response = { 200: PermissionSchema };

    app.get(
      `${base}/organization`,
      { schema: { tags, querystring: OrganizationPermissionQuery, response: { 200: PermissionListSchema } } },
      async (request) => listPermissions(deps, await request.grants(), { scope: 'organization', id: request.query.organizationId }),
    );
    app.get(`${base}/site/:siteId`, { schema: { tags, params: SiteIdParams, response: { 200: PermissionListSchema } } }, async (request) =>
      listPermissions(deps, await request.grants(), { scope: 'site', id: request.params.siteId }),
    );

    app.post(`${base}/organization`, { schema: { tags, body: CreateOrganizationPermissionBody, response } }, async (request) => {
      const { organizationId: id, ...grant } = request.body;
      const on = { scope: 'organization' as const, id };
      return createPermission(deps, await request.grants(), { ...grant, on, inviter: request.user, ip: request.ip, audit: auditContext(request) });
    });
    app.post(`${base}/site`, { schema: { tags, body: CreateSitePermissionBody, response } }, async (request) => {
      const { siteId: id, ...grant } = request.body;
      const on = { scope: 'site' as const, id };
      return createPermission(deps, await request.grants(), { ...grant, on, inviter: request.user, ip: request.ip, audit: auditContext(request) });
    });

    for (const [scope, path] of Object.entries(GRANT_PATHS) as [Exclude<PermissionScope, 'exhibit'>, string][]) {
      app.put(`${path}/:id`, { schema: { tags, params: IdParams, body: UpdatePermissionBody, response } }, async (request) =>
        updatePermission(deps, await request.grants(), { scope, grantId: request.params.id, role: request.body.role, audit: auditContext(request) }),
      );
      app.delete(`${path}/:id`, { schema: { tags, params: IdParams, response: { 200: OkSchema } } }, async (request) => {
        await deletePermission(deps, await request.grants(), { scope, grantId: request.params.id, audit: auditContext(request) });
        return { ok: true as const };
      });
    }
  };
}
