import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { createFirmwareStore } from './firmware-store.js';
import { authorizeFirmwareDownload } from './firmware.service.js';

/** The board's own firmware download: Basic auth with its hardware id and token, no user session. */
export function firmwareDownloadRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const store = createFirmwareStore(deps.files, { maxBytes: deps.config.MAX_FILE_BYTES });
    app.get('/hardware-device/firmware/:id', { schema: { tags: ['device'], params: IdParams } }, async (request, reply) => {
      const row = await authorizeFirmwareDownload(deps, request.params.id, request.headers.authorization);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(row.fileSize))
        .header('x-checksum-sha256', row.sha256)
        .send(await store.open(row.hardwareId, row.fileName));
    });
  };
}
