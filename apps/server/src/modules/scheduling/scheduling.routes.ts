import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  can,
  CreateScheduleBody,
  DeleteScheduleQuery,
  Id,
  IdParams,
  ListSchedulesQuery,
  ScheduleDeleteResponse,
  ScheduleRunResponse,
  SchedulesResponse,
  ScheduleWriteResponse,
  UpdateScheduleBody,
  OkSchema,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { actorOf } from '../auth/actor.js';
import { auditContext } from '../audit/audit-context.js';
import { AppError } from '../../lib/app-error.js';
import { authorizeExhibit } from '../access/exhibit-access.js';
import { authorizeExhibitItems } from '../access/item-access.js';
import { removeFileFromSchedules } from './schedule-files.service.js';
import { createSchedule, deleteSchedule, listSchedules, requireScheduledEvent, updateSchedule } from './scheduling.service.js';

/**
 * The scheduling calls of spec 7.1. The path's id is the exhibit for GET and POST, the event for
 * PUT and DELETE (whose body or series name the rest). Developers and up read the calendar and
 * (canModify, the right `editSchedules`) create, edit and delete; viewers get neither (spec 2.1);
 * running due events now is for platform admins.
 */
export function schedulingRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['scheduling'];
    const base = '/exhibit-management/scheduling';

    app.get(`${base}/:id`, { schema: { tags, params: IdParams, querystring: ListSchedulesQuery, response: { 200: SchedulesResponse } } }, async (request) => {
      // Viewers do not get the Scheduling tab (spec 2.1), nor its call.
      const access = await authorizeExhibitItems(deps.db, await request.grants(), { exhibitId: request.params.id, right: 'seeSchedules' });
      return listSchedules(deps, { exhibitId: request.params.id, ...request.query, canModify: can(access.role, 'editSchedules'), access });
    });

    app.post(`${base}/:id`, { schema: { tags, params: IdParams, body: CreateScheduleBody, response: { 200: ScheduleWriteResponse } } }, async (request) => {
      const access = await authorizeExhibitItems(deps.db, await request.grants(), { exhibitId: request.params.id, right: 'editSchedules' });
      return createSchedule(deps, { exhibitId: request.params.id, input: request.body, by: actorOf(request).label, access, audit: auditContext(request) });
    });

    app.put(`${base}/:id`, { schema: { tags, params: IdParams, body: UpdateScheduleBody, response: { 200: ScheduleWriteResponse } } }, async (request) => {
      // The exhibit named in the body must be the event's: anything else is not found.
      const access = await authorizeExhibitItems(deps.db, await request.grants(), { exhibitId: request.body.exhibitId, right: 'editSchedules' });
      const row = await requireScheduledEvent(deps, request.params.id);
      if (row.exhibitId !== request.body.exhibitId) throw new AppError('NotFound', 'The scheduled event does not exist.');
      return updateSchedule(deps, { row, input: request.body, by: actorOf(request).label, access, audit: auditContext(request) });
    });

    app.delete(`${base}/:id`, { schema: { tags, params: IdParams, querystring: DeleteScheduleQuery, response: { 200: ScheduleDeleteResponse } } }, async (request) => {
      const row = await requireScheduledEvent(deps, request.params.id).catch(() => null);
      // Unknown and invisible answer the same 404.
      if (!row) throw new AppError('NotFound', 'The scheduled event does not exist.');
      await authorizeExhibit(deps.db, await request.grants(), { exhibitId: row.exhibitId, right: 'editSchedules' });
      if (request.query.recurringId && request.query.recurringId !== row.recurringId) {
        throw new AppError('ValidationError', 'recurringId: the event is not in that series');
      }
      return deleteSchedule(deps, row, { changeAll: request.query.changeAll, by: actorOf(request).label, audit: auditContext(request) });
    });

    app.delete(
      `${base}/schedulesetting/file/:fileName`,
      {
        schema: {
          tags,
          params: z.object({ fileName: z.string().min(1).max(1000) }),
          querystring: z.object({ exhibitId: Id }),
          response: { 200: OkSchema.extend({ events: z.number().int() }) },
        },
      },
      async (request) => {
        await authorizeExhibit(deps.db, await request.grants(), { exhibitId: request.query.exhibitId, right: 'editSchedules' });
        const events = await removeFileFromSchedules(deps, { exhibitId: request.query.exhibitId, fileName: request.params.fileName, by: actorOf(request).label });
        return { ok: true as const, events };
      },
    );

    app.post(`${base}/run`, { schema: { tags, response: { 200: ScheduleRunResponse } } }, async (request) => {
      if (!request.sessionUser?.isPlatformAdmin) throw new AppError('Forbidden', 'Only platform admins may run the scheduler by hand.');
      if (!deps.scheduler) throw new AppError('ServiceUnavailable', 'The scheduler is not running on this server.');
      return deps.scheduler.runNow();
    });
  };
}
