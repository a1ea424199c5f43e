import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateExhibitPermissionBody,
  ExhibitMemberSchema,
  ExhibitUsersResponse,
  GranularPermissionsResponse,
  GranularQuery,
  IdParams,
  OkSchema,
  UpdateExhibitPermissionBody,
  UpdateGranularBody,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { auditContext } from '../audit/audit-context.js';
import { AppError } from '../../lib/app-error.js';
import { getGranular, updateGranular } from './granular.service.js';
import { presentExhibitMember } from './permission.presenter.js';
import { addGrant, changeGrant, deletePermission, listGrantRows } from './permission.service.js';

/**
 * The users of an exhibit and their per-item levels (spec 2.10, 7.1). The same permission service
 * as organizations and sites, with the exhibit's rules (permission.service.ts, SCOPES.exhibit).
 * The caller's own role is GET .../by-exhibit-id/user/{id} (exhibit-runtime.routes.ts).
 */
export function exhibitPermissionRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['permission'];
    const base = '/exhibit-management/permission';
    const scope = 'exhibit' as const;

    app.get(`${base}/by-exhibit-id/:id`, { schema: { tags, params: IdParams, response: { 200: ExhibitUsersResponse } } }, async (request) => {
      const { rows, canManage } = await listGrantRows(deps, await request.grants(), { scope, id: request.params.id });
      // The Users tab is the managers' (spec 2.1): the call behind it is theirs too.
      if (!canManage) throw new AppError('Forbidden', 'Only managers of this exhibit see its users.');
      return { exhibitUsers: rows.map(presentExhibitMember), canManage };
    });

    // `exhibitCreated` only says the console adds the exhibit's creator: the same rules apply.
    app.post(base, { schema: { tags, body: CreateExhibitPermissionBody, response: { 200: ExhibitMemberSchema } } }, async (request) => {
      const { exhibitId: id, email, role } = request.body;
      const row = await addGrant(deps, await request.grants(), { on: { scope, id }, email, role, inviter: request.user, ip: request.ip, audit: auditContext(request) });
      return presentExhibitMember(row);
    });

    app.get(`${base}/granular`, { schema: { tags, querystring: GranularQuery, response: { 200: GranularPermissionsResponse } } }, async (request) => ({
      exhibitUser: await getGranular(deps, await request.grants(), request.query),
    }));

    app.put(`${base}/granular`, { schema: { tags, body: UpdateGranularBody, response: { 200: GranularPermissionsResponse } } }, async (request) => ({
      exhibitUser: await updateGranular(deps, await request.grants(), { ...request.body, audit: auditContext(request) }),
    }));

    app.put(`${base}/:id`, { schema: { tags, params: IdParams, body: UpdateExhibitPermissionBody, response: { 200: ExhibitMemberSchema } } }, async (request) =>
      presentExhibitMember(await changeGrant(deps, await request.grants(), { scope, grantId: request.params.id, role: request.body.role, audit: auditContext(request) })),
    );

    app.delete(`${base}/:id`, { schema: { tags, params: IdParams, response: { 200: OkSchema } } }, async (request) => {
      await deletePermission(deps, await request.grants(), { scope, grantId: request.params.id, audit: auditContext(request) });
      return { ok: true as const };
    });
  };
}
