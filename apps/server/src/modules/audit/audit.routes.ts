import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditCsvQuery, AuditCsvSchema, AuditListQuery, AuditPageSchema, IdParams } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { auditCsvFileName } from './audit.presenter.js';
import { exportAuditCsv, listAuditEntries } from './audit.service.js';

const LIST_DESCRIPTION =
  "An organization's audit log (organization managers and platform admins): every change a person or an API key made, newest " +
  'first, with who, when, from which address, what, and before → after (secrets redacted). Filters by site, exhibit, board, ' +
  'actor (part of an email or key name), action and time (`from` included, `to` excluded, epoch ms); paged by `cursor` ' +
  '(the previous page\'s `nextCursor`).';
const CSV_DESCRIPTION =
  'The entries the same filters select, newest first, as a streamed CSV attachment (header sequence,at,actor_kind,actor_id,actor,' +
  'address,site_id,exhibit_id,hardware_id,resource,resource_id,action,before,after,hash; RFC 4180; a cell starting with = + - @, ' +
  'a tab or a carriage return is prefixed with an apostrophe).';

/** The audit log (issue 20): read only; nothing updates or deletes an entry through the API. */
export function auditRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['audit'];
    const base = '/audit/organization/:id';

    app.get(
      `${base}/entries`,
      { schema: { tags, description: LIST_DESCRIPTION, params: IdParams, querystring: AuditListQuery, response: { 200: AuditPageSchema } } },
      async (request) => {
        const { cursor, pageSize, ...filters } = request.query;
        return listAuditEntries(deps, await request.grants(), { organizationId: request.params.id, filters, cursor, pageSize });
      },
    );

    app.get(
      `${base}/entries.csv`,
      { schema: { tags, description: CSV_DESCRIPTION, params: IdParams, querystring: AuditCsvQuery, produces: ['text/csv'], response: { 200: AuditCsvSchema } } },
      async (request, reply) => {
        const chunks = await exportAuditCsv(deps, await request.grants(), { organizationId: request.params.id, filters: request.query });
        return sendCsv(reply, { fileName: auditCsvFileName(request.params.id, deps.clock.now()), chunks });
      },
    );
  };
}

/** Streams CSV text as an attachment (backpressure honoured; reading stops when the client goes away). */
function sendCsv(reply: FastifyReply, csv: { fileName: string; chunks: AsyncGenerator<string> }): FastifyReply {
  void reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${csv.fileName}"`);
  return reply.send(Readable.from(csv.chunks));
}
