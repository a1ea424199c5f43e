import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ContentFileQuery } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { openDownload } from './file-download.service.js';

/**
 * GET /content/files/?exhibitId&fileName: a file's bytes. Public in the route table because the
 * exhibit itself downloads with HTTP Basic auth (its id and token); a console session or an API key works too.
 * The service checks either (401 without, 404 for an exhibit the caller may not read).
 */
export function filesDownloadRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/content/files/', { schema: { tags: ['content'], querystring: ContentFileQuery } }, async (request, reply) => {
      const header = (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const download = await openDownload(deps, {
        ...request.query,
        grants: request.sessionUser || request.apiKey ? () => request.grants() : null,
        headers: {
          authorization: header('authorization'),
          range: header('range'),
          ifRange: header('if-range'),
          ifNoneMatch: header('if-none-match'),
          ifModifiedSince: header('if-modified-since'),
        },
      });
      void reply.code(download.status).headers(download.headers);
      if (download.error) return reply.send(download.error);
      return reply.send(download.body ?? undefined);
    });
  };
}
