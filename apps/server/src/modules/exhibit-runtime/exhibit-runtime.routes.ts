import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ControlParams,
  ControlQuery,
  ControlResultSchema,
  ExhibitSettingParams,
  ExhibitUserSchema,
  IdParams,
  ManifestResponseSchema,
  OkSchema,
  OpModeBody,
  SetSettingBody,
  StrapiContentBody,
  SyncFollowersResultSchema,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { actorOf } from '../auth/actor.js';
import { auditContext } from '../audit/audit-context.js';
import { authorizeExhibit } from '../access/exhibit-access.js';
import { authorizeExhibitItems } from '../access/item-access.js';
import { fireControl, getManifest, setOpMode } from './exhibit-runtime.service.js';
import { saveSetting, saveStrapiContent, syncFollowers } from './exhibit-settings.service.js';

/**
 * A live exhibit as the console drives it: the manifest with live values, controls, settings,
 * op mode, follower sync and the caller's role. Setting-list items and tokens have their own
 * routes (exhibit-setting-list.routes.ts, exhibit-tokens.routes.ts).
 */
export function exhibitRuntimeRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['exhibit runtime'];
    const base = '/exhibit-management/exhibit/:id';
    const ok = { ok: true as const };

    app.get(`${base}/manifest`, { schema: { tags, params: IdParams, response: { 200: ManifestResponseSchema } } }, async (request) => {
      const access = await authorizeExhibitItems(deps.db, await request.grants(), { exhibitId: request.params.id, right: 'view' });
      return getManifest(deps, request.params.id, access);
    });

    app.post(
      `${base}/control/:controlId`,
      { schema: { tags, params: ControlParams, querystring: ControlQuery, response: { 200: ControlResultSchema } } },
      async (request) => {
        const { id, controlId } = request.params;
        const access = await authorizeExhibitItems(deps.db, await request.grants(), { exhibitId: id, right: 'fireControl' });
        await fireControl(deps, id, { controlId, itemId: request.query.itemId, by: actorOf(request).label, access });
        return { delivered: true as const };
      },
    );

    app.post(
      `${base}/setting/:settingId`,
      { schema: { tags, params: ExhibitSettingParams, body: SetSettingBody, response: { 200: OkSchema } } },
      async (request) => {
        const { id, settingId } = request.params;
        const access = await authorizeExhibitItems(deps.db, await request.grants(), { exhibitId: id, right: 'editSettings' });
        await saveSetting(deps, id, { settingId, ...request.body, by: actorOf(request).label, access, audit: auditContext(request) });
        return ok;
      },
    );

    app.put(
      `${base}/strapi-content/:settingId`,
      { schema: { tags, params: ExhibitSettingParams, body: StrapiContentBody, response: { 200: OkSchema } } },
      async (request) => {
        const { id, settingId } = request.params;
        const access = await authorizeExhibitItems(deps.db, await request.grants(), { exhibitId: id, right: 'editSettings' });
        await saveStrapiContent(deps, id, { settingId, contentId: request.body.contentId, by: actorOf(request).label, access, audit: auditContext(request) });
        return ok;
      },
    );

    app.post(`${base}/opMode`, { schema: { tags, params: IdParams, body: OpModeBody, response: { 200: OkSchema } } }, async (request) => {
      await authorizeExhibit(deps.db, await request.grants(), { exhibitId: request.params.id, right: 'operate' });
      await setOpMode(deps, request.params.id, { mode: request.body.opMode, by: actorOf(request).label, audit: auditContext(request) });
      return ok;
    });

    app.post(`${base}/sync-followers`, { schema: { tags, params: IdParams, response: { 200: SyncFollowersResultSchema } } }, async (request) => {
      await authorizeExhibit(deps.db, await request.grants(), { exhibitId: request.params.id, right: 'editSettings' });
      const result = await syncFollowers(deps, request.params.id);
      return { ok: true as const, followers: result.followers };
    });

    // The caller's effective role on the exhibit.
    app.get(
      '/exhibit-management/permission/by-exhibit-id/user/:id',
      { schema: { tags, params: IdParams, response: { 200: ExhibitUserSchema } } },
      async (request) => {
        const { user } = request;
        const role = await authorizeExhibit(deps.db, await request.grants(), { exhibitId: request.params.id, right: 'view' });
        return { exhibitUser: { exhibitId: request.params.id, userId: user.id, email: user.email, role } };
      },
    );
  };
}
