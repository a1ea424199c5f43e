import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ContentDeleteQuery, ContentDeleteResponse, ContentFilesQuery, ContentFilesResponse, ContentUploadResponse, type Right } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { actorOf } from '../auth/actor.js';
import { auditContext } from '../audit/audit-context.js';
import { AppError } from '../../lib/app-error.js';
import { authorizeExhibit } from '../access/exhibit-access.js';
import { deleteFile } from './file-delete.service.js';
import { listExhibitFiles, MAX_FILES_PER_UPLOAD, uploadFiles, type UploadPart } from './files.service.js';

/**
 * An exhibit's files as the console manages them (spec 7.4): list, upload, delete. Viewers list
 * (and download, files-download.routes.ts); developers upload and delete. The exhibit must be in
 * the site the call names.
 */
export function filesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['content'];
    const authorize = async (request: FastifyRequest, exhibitId: string, right: Right) =>
      authorizeExhibit(deps.db, await request.grants(), { exhibitId, right });

    app.get('/content/files/ls', { schema: { tags, querystring: ContentFilesQuery, response: { 200: ContentFilesResponse } } }, async (request) => {
      await authorize(request, request.query.exhibitId, 'view');
      return listExhibitFiles(deps, request.query);
    });

    app.post(
      '/content/files/upload',
      { schema: { tags, querystring: ContentFilesQuery, consumes: ['multipart/form-data'], response: { 200: ContentUploadResponse } } },
      async (request) => {
        await authorize(request, request.query.exhibitId, 'editFiles');
        if (!request.isMultipart()) throw new AppError('ValidationError', 'file: send the files as multipart form data');
        const maxBytes = deps.config.MAX_FILE_BYTES;
        // The parser stops reading a part at the limit (nothing larger is read) and keeps names as sent, to check them.
        const parts = request.files({ limits: { fileSize: maxBytes, files: MAX_FILES_PER_UPLOAD, fields: 20 }, preservePath: true });
        return uploadFiles(deps, { ...request.query, parts: parts as AsyncIterable<UploadPart>, by: actorOf(request).label, maxBytes, audit: auditContext(request) });
      },
    );

    app.delete('/content/files/', { schema: { tags, querystring: ContentDeleteQuery, response: { 200: ContentDeleteResponse } } }, async (request) => {
      await authorize(request, request.query.exhibitId, 'editFiles');
      return deleteFile(deps, { ...request.query, by: actorOf(request).label, audit: auditContext(request) });
    });
  };
}
