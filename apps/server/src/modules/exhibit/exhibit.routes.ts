import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BySiteIdsQuery,
  CreateExhibitBody,
  ExhibitListSchema,
  ExhibitSchema,
  IdParams,
  OkSchema,
  UpdateExhibitBody,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { actorOf } from '../auth/actor.js';
import { auditContext } from '../audit/audit-context.js';
import {
  createExhibit,
  deleteExhibit,
  getExhibit,
  listExhibits,
  listExhibitsBySites,
  updateExhibit,
} from './exhibit.service.js';

/** Exhibit records: lists, create, read, update (name, MQTT address, leader, lock) and delete. */
export function exhibitRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['exhibit'];
    const base = '/exhibit-management/exhibit';

    app.get(base, { schema: { tags, response: { 200: ExhibitListSchema } } }, async (request) => ({
      exhibits: await listExhibits(deps, await request.grants()),
    }));

    // The console calls the path with its trailing slash; the bare one answers the same.
    for (const path of [`${base}/by-site-ids/`, `${base}/by-site-ids`]) {
      app.get(
        path,
        { schema: { tags, hide: !path.endsWith('/'), querystring: BySiteIdsQuery, response: { 200: ExhibitListSchema } } },
        async (request) => ({ exhibits: await listExhibitsBySites(deps, await request.grants(), request.query.siteId) }),
      );
    }

    app.post(base, { schema: { tags, body: CreateExhibitBody, response: { 200: ExhibitSchema } } }, async (request) =>
      createExhibit(deps, await request.grants(), { ...request.body, audit: auditContext(request) }),
    );

    app.get(`${base}/:id`, { schema: { tags, params: IdParams, response: { 200: ExhibitSchema } } }, async (request) =>
      getExhibit(deps, await request.grants(), request.params.id),
    );

    app.put(
      `${base}/:id`,
      { schema: { tags, params: IdParams, body: UpdateExhibitBody, response: { 200: ExhibitSchema } } },
      async (request) => updateExhibit(deps, await request.grants(), { ...request.body, id: request.params.id, audit: auditContext(request) }),
    );

    app.delete(`${base}/:id`, { schema: { tags, params: IdParams, response: { 200: OkSchema } } }, async (request) => {
      await deleteExhibit(deps, await request.grants(), { id: request.params.id, by: actorOf(request).label, audit: auditContext(request) });
      return { ok: true as const };
    });
  };
}
