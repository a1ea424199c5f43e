import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateHardwareBody,
  HardwareListQuery,
  HardwareListSchema,
  HardwareSchema,
  IdParams,
  OkSchema,
  UpdateHardwareBody,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { actorOf } from '../auth/actor.js';
import { auditContext } from '../audit/audit-context.js';
import { createHardware, deleteHardware, getHardware, listHardware, updateHardware } from './hardware.service.js';

/** Hardware records: list by site(s) or exhibit, create, read, update (name, exhibit, debug mode) and delete. */
export function hardwareRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['hardware'];
    const base = '/hardware-mgmt/hardware';

    // The console lists with the trailing slash; the bare path answers the same.
    for (const path of [`${base}/`, base]) {
      app.get(
        path,
        { schema: { tags, hide: path === base, querystring: HardwareListQuery, response: { 200: HardwareListSchema } } },
        async (request) => ({ hardware: await listHardware(deps, await request.grants(), request.query) }),
      );
    }

    app.post(base, { schema: { tags, body: CreateHardwareBody, response: { 200: HardwareSchema } } }, async (request) =>
      createHardware(deps, await request.grants(), { ...request.body, audit: auditContext(request) }),
    );

    app.get(`${base}/:id`, { schema: { tags, params: IdParams, response: { 200: HardwareSchema } } }, async (request) =>
      getHardware(deps, await request.grants(), request.params.id),
    );

    app.put(
      `${base}/:id`,
      { schema: { tags, params: IdParams, body: UpdateHardwareBody, response: { 200: HardwareSchema } } },
      async (request) => updateHardware(deps, await request.grants(), { ...request.body, id: request.params.id, by: actorOf(request).label, audit: auditContext(request) }),
    );

    app.delete(`${base}/:id`, { schema: { tags, params: IdParams, response: { 200: OkSchema } } }, async (request) => {
      await deleteHardware(deps, await request.grants(), { id: request.params.id, audit: auditContext(request) });
      return { ok: true as const };
    });
  };
}
