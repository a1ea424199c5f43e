import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ExhibitLiveLogBody,
  ExhibitLogsQuery,
  HardwareLiveLogBody,
  HardwareLogsQuery,
  LiveLogLeaseSchema,
  LogCsvQuery,
  LogCsvSchema,
  LogPageSchema,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { authorizeExhibit } from '../access/exhibit-access.js';
import { authorizeHardware } from '../access/hardware-access.js';
import { exportLogs, getLogPage, setLiveLog, type LogRange } from './logging.service.js';
import { csvFileName } from './logging.presenter.js';

const CSV_DESCRIPTION =
  'The logs of the range, oldest first, as `{ logs: [{ datetime, data, event_type }] }`; with `Accept: text/csv`, a CSV file ' +
  '(header datetime,data,event_type; RFC 4180; formula-like cells prefixed with an apostrophe) sent as an attachment. Both are streamed.';

/** Streams a device's logs: a CSV attachment when the caller accepts text/csv, else the JSON answer. */
function sendExport(deps: AppDeps, call: { request: FastifyRequest; reply: FastifyReply }, range: LogRange): FastifyReply {
  const { request, reply } = call;
  const csv = (request.headers.accept ?? '').toLowerCase().includes('text/csv');
  const chunks = exportLogs(deps, range, csv ? 'csv' : 'json');
  if (csv) {
    const fileName = csvFileName(range.source, range.deviceId, deps.clock.now());
    void reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${fileName}"`);
  } else {
    void reply.type('application/json; charset=utf-8');
  }
  return reply.send(Readable.from(chunks));
}

/**
 * Logs (spec 7.3): a device's paged log history, its CSV, and the live-log lease. Each call needs
 * the right to view the exhibit or board (404 when the caller cannot see it).
 */
export function loggingRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['logging'];
    const { db } = deps;

    app.get('/logging/exhibit', { schema: { tags, querystring: ExhibitLogsQuery, response: { 200: LogPageSchema } } }, async (request) => {
      const { exhibitId, start, end, ...page } = request.query;
      await authorizeExhibit(db, await request.grants(), { exhibitId, right: 'view' });
      return getLogPage(deps, { source: 'exhibit', deviceId: exhibitId, start, end }, page);
    });

    app.get('/logging/hardware', { schema: { tags, querystring: HardwareLogsQuery, response: { 200: LogPageSchema } } }, async (request) => {
      const { hardwareId, start, end, ...page } = request.query;
      await authorizeHardware(db, await request.grants(), { hardwareId, right: 'view' });
      return getLogPage(deps, { source: 'hardware', deviceId: hardwareId, start, end }, page);
    });

    const csvSchema = { tags, description: CSV_DESCRIPTION, querystring: LogCsvQuery, produces: ['application/json', 'text/csv'], response: { 200: LogCsvSchema } };
    app.get('/logging/exhibit/csv', { schema: csvSchema }, async (request, reply) => {
      const { id, start, end } = request.query;
      await authorizeExhibit(db, await request.grants(), { exhibitId: id, right: 'view' });
      return sendExport(deps, { request, reply }, { source: 'exhibit', deviceId: id, start, end });
    });

    app.get('/logging/hardware/csv', { schema: csvSchema }, async (request, reply) => {
      const { id, start, end } = request.query;
      await authorizeHardware(db, await request.grants(), { hardwareId: id, right: 'view' });
      return sendExport(deps, { request, reply }, { source: 'hardware', deviceId: id, start, end });
    });

    app.post('/logging/exhibit/live', { config: { personOnly: true }, schema: { tags, body: ExhibitLiveLogBody, response: { 200: LiveLogLeaseSchema } } }, async (request) => {
      const { exhibitId, enabled } = request.body;
      await authorizeExhibit(db, await request.grants(), { exhibitId, right: 'view' });
      return setLiveLog(deps, { source: 'exhibit', deviceId: exhibitId, userId: request.user.id, enabled });
    });

    app.post('/logging/hardware/live', { config: { personOnly: true }, schema: { tags, body: HardwareLiveLogBody, response: { 200: LiveLogLeaseSchema } } }, async (request) => {
      const { hardwareId, enabled } = request.body;
      await authorizeHardware(db, await request.grants(), { hardwareId, right: 'view' });
      return setLiveLog(deps, { source: 'hardware', deviceId: hardwareId, userId: request.user.id, enabled });
    });
  };
}
