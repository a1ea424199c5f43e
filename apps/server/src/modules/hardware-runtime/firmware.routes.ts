import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateFirmwareBody,
  FirmwareFileDeleteQuery,
  FirmwareListQuery,
  FirmwareListSchema,
  FirmwarePushSchema,
  FirmwareSchema,
  FirmwareUploadQuery,
  FirmwareUploadSchema,
  IdParams,
  OkSchema,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { actorOf } from '../auth/actor.js';
import { auditContext } from '../audit/audit-context.js';
import { AppError } from '../../lib/app-error.js';
import { createFirmwareStore } from './firmware-store.js';
import {
  createFirmware,
  deleteFirmware,
  deleteFirmwareFile,
  getFirmwareRow,
  listFirmware,
  pushFirmware,
  saveFirmwareFile,
} from './firmware.service.js';
import { authorizeHardware } from '../access/hardware-access.js';

/** A board's firmware: the records (list, create, push to the board, delete) and the files behind them. */
export function firmwareRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = deps;
    const store = createFirmwareStore(deps.files, { maxBytes: deps.config.MAX_FILE_BYTES });
    /** The board a firmware-file call names, when the caller may operate it and it is in the site named too (else 404). */
    const operableBoard = async (request: FastifyRequest, query: { hardwareId: string; siteId: string }) => {
      const ref = await authorizeHardware(db, await request.grants(), { hardwareId: query.hardwareId, right: 'operate' });
      if (ref.siteId !== query.siteId) throw new AppError('NotFound');
      return ref;
    };

    // ---- Firmware records ----
    const hw = ['hardware'];
    app.get(
      '/hardware-mgmt/firmware',
      { schema: { tags: hw, querystring: FirmwareListQuery, response: { 200: FirmwareListSchema } } },
      async (request) => {
        await authorizeHardware(db, await request.grants(), { hardwareId: request.query.hardwareId, right: 'view' });
        return listFirmware(deps, request.query.hardwareId);
      },
    );
    app.post('/hardware-mgmt/firmware', { schema: { tags: hw, body: CreateFirmwareBody, response: { 200: FirmwareSchema } } }, async (request) => {
      await authorizeHardware(db, await request.grants(), { hardwareId: request.body.hardwareId, right: 'operate' });
      return createFirmware(deps, store, { ...request.body, audit: auditContext(request) });
    });
    app.post(
      '/hardware-mgmt/firmware/:id/upload',
      { schema: { tags: hw, params: IdParams, response: { 200: FirmwarePushSchema } } },
      async (request) => {
        const row = await getFirmwareRow(deps, request.params.id);
        await authorizeHardware(db, await request.grants(), { hardwareId: row.hardwareId, right: 'operate' });
        return pushFirmware(deps, row, { by: actorOf(request).label, audit: auditContext(request) });
      },
    );
    app.delete('/hardware-mgmt/firmware/:id', { schema: { tags: hw, params: IdParams, response: { 200: OkSchema } } }, async (request) => {
      const row = await getFirmwareRow(deps, request.params.id);
      await authorizeHardware(db, await request.grants(), { hardwareId: row.hardwareId, right: 'operate' });
      await deleteFirmware(deps, row, auditContext(request));
      return { ok: true as const };
    });

    // ---- Firmware files ----
    const content = ['content'];
    app.post(
      '/content/firmware/upload',
      { schema: { tags: content, querystring: FirmwareUploadQuery, response: { 200: FirmwareUploadSchema } } },
      async (request) => {
        const ref = await operableBoard(request, request.query);
        if (!request.isMultipart()) throw new AppError('ValidationError', 'file: send the firmware as multipart form data');
        const file = await request.file();
        if (!file) throw new AppError('ValidationError', 'file: is required');
        return saveFirmwareFile(deps, store, { hardwareId: ref.id, fileName: request.query.firmwareName ?? file.filename, content: file.file, audit: auditContext(request) });
      },
    );
    app.delete(
      '/content/firmware',
      { schema: { tags: content, querystring: FirmwareFileDeleteQuery, response: { 200: OkSchema } } },
      async (request) => {
        const ref = await operableBoard(request, request.query);
        await deleteFirmwareFile(deps, store, { hardwareId: ref.id, fileName: request.query.firmware, audit: auditContext(request) });
        return { ok: true as const };
      },
    );
  };
}
