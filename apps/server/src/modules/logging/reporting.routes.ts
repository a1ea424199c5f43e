import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ExhibitReportQuery, HardwareReportQuery, ReportAnswerSchema } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { authorizeExhibit } from '../access/exhibit-access.js';
import { authorizeHardware } from '../access/hardware-access.js';
import { getExhibitReport, getHardwareReport } from './reporting.service.js';

/** Reports (spec 7.3): an exhibit's event charts and a board's 14-day event counts, bucketed in the viewer's time zone. */
export function reportingRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['reporting'];
    const { db } = deps;

    app.get('/reporting/exhibit/report', { schema: { tags, querystring: ExhibitReportQuery, response: { 200: ReportAnswerSchema } } }, async (request) => {
      await authorizeExhibit(db, await request.grants(), { exhibitId: request.query.exhibitId, right: 'view' });
      return { report: await getExhibitReport(deps, request.query) };
    });

    app.get('/reporting/hardware/report', { schema: { tags, querystring: HardwareReportQuery, response: { 200: ReportAnswerSchema } } }, async (request) => {
      await authorizeHardware(db, await request.grants(), { hardwareId: request.query.hardwareId, right: 'view' });
      return { report: await getHardwareReport(deps, request.query) };
    });
  };
}
