import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BoardPropParams,
  CommandResultSchema,
  CreatedHardwareTokenSchema,
  CreateFirmwareBody,
  CreateHardwareTokenBody,
  FirmwareFileDeleteQuery,
  FirmwareListQuery,
  FirmwareListSchema,
  FirmwarePushSchema,
  FirmwareSchema,
  FirmwareUploadQuery,
  FirmwareUploadSchema,
  HardwareCommandParams,
  HardwareTokenListSchema,
  IdParams,
  OkSchema,
  PeripheralPropParams,
  SetPropBody,
  UpdatePropBody,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { createFirmwareStore } from './firmware-store.js';
import {
  authorizeFirmwareDownload,
  createFirmware,
  deleteFirmware,
  deleteFirmwareFile,
  getFirmwareRow,
  listFirmware,
  pushFirmware,
  saveFirmwareFile,
} from './firmware.service.js';
import { authorizeHardware } from './hardware-access.js';
import { runHardwareCommand, setHardwareProp } from './hardware-commands.service.js';
import { createHardwareToken, deleteHardwareToken, findHardwareToken, listHardwareTokens } from './hardware-tokens.service.js';

/**
 * What drives a live board: hardware tokens, commands, prop sets, firmware records, firmware files
 * and the boards' own firmware download. Hardware records themselves are in modules/hardware.
 */
export function hardwareRuntimeRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = deps;
    const store = createFirmwareStore(deps.config.dataDir);

    // ---- Hardware tokens ----
    const auth = ['auth'];
    app.post(
      '/auth/hardware',
      { schema: { tags: auth, body: CreateHardwareTokenBody, response: { 200: CreatedHardwareTokenSchema } } },
      async (request) => {
        await authorizeHardware(db, request, request.body.hardwareId, 'createToken');
        return createHardwareToken(deps, request.body.hardwareId, request.body.name);
      },
    );
    app.get('/auth/hardware/:id', { schema: { tags: auth, params: IdParams, response: { 200: HardwareTokenListSchema } } }, async (request) => {
      await authorizeHardware(db, request, request.params.id, 'createToken');
      return { tokens: await listHardwareTokens(deps, request.params.id) };
    });
    app.delete(
      '/auth/hardware/delete-token/:id',
      { schema: { tags: auth, params: IdParams, response: { 200: OkSchema } } },
      async (request) => {
        const token = await findHardwareToken(deps, request.params.id);
        await authorizeHardware(db, request, token.hardwareId, 'deleteToken');
        await deleteHardwareToken(deps, token);
        return { ok: true as const };
      },
    );

    // ---- Commands and peripherals ----
    const hw = ['hardware'];
    app.get(
      '/hardware-mgmt/hardware/:id/:command',
      { schema: { tags: hw, params: HardwareCommandParams, response: { 200: CommandResultSchema } } },
      async (request) => {
        await authorizeHardware(db, request, request.params.id, 'operate');
        return runHardwareCommand(deps, request.params.id, request.params.command);
      },
    );
    app.put(
      '/hardware-mgmt/peripheral/:hardwareId/:peripheralId/:propName',
      { schema: { tags: hw, params: BoardPropParams, body: SetPropBody, response: { 200: CommandResultSchema } } },
      async (request) => {
        const { hardwareId, peripheralId, propName } = request.params;
        if (request.body.hardwareId !== undefined && request.body.hardwareId !== hardwareId) {
          throw new AppError('ValidationError', 'hardwareId: must be the hardware named in the path');
        }
        await authorizeHardware(db, request, hardwareId, 'operate');
        return setHardwareProp(deps, hardwareId, peripheralId, propName, request.body.value);
      },
    );
    app.put(
      '/hardware-mgmt/peripheral/:peripheralId/:propName',
      { schema: { tags: hw, params: PeripheralPropParams, body: UpdatePropBody, response: { 200: CommandResultSchema } } },
      async (request) => {
        await authorizeHardware(db, request, request.body.hardwareId, 'operate');
        return setHardwareProp(deps, request.body.hardwareId, request.params.peripheralId, request.params.propName, request.body.value);
      },
    );

    // ---- Firmware records ----
    app.get(
      '/hardware-mgmt/firmware',
      { schema: { tags: hw, querystring: FirmwareListQuery, response: { 200: FirmwareListSchema } } },
      async (request) => {
        await authorizeHardware(db, request, request.query.hardwareId, 'view');
        return listFirmware(deps, request.query.hardwareId);
      },
    );
    app.post('/hardware-mgmt/firmware', { schema: { tags: hw, body: CreateFirmwareBody, response: { 200: FirmwareSchema } } }, async (request) => {
      await authorizeHardware(db, request, request.body.hardwareId, 'operate');
      return createFirmware(deps, store, request.body);
    });
    app.post(
      '/hardware-mgmt/firmware/:id/upload',
      { schema: { tags: hw, params: IdParams, response: { 200: FirmwarePushSchema } } },
      async (request) => {
        const row = await getFirmwareRow(deps, request.params.id);
        await authorizeHardware(db, request, row.hardwareId, 'operate');
        return pushFirmware(deps, row);
      },
    );
    app.delete('/hardware-mgmt/firmware/:id', { schema: { tags: hw, params: IdParams, response: { 200: OkSchema } } }, async (request) => {
      const row = await getFirmwareRow(deps, request.params.id);
      await authorizeHardware(db, request, row.hardwareId, 'operate');
      await deleteFirmware(deps, row.id);
      return { ok: true as const };
    });

    // ---- Firmware files ----
    const content = ['content'];
    app.post(
      '/content/firmware/upload',
      { schema: { tags: content, querystring: FirmwareUploadQuery, response: { 200: FirmwareUploadSchema } } },
      async (request) => {
        const ref = await authorizeHardware(db, request, request.query.hardwareId, 'operate');
        if (ref.siteId !== request.query.siteId) throw new AppError('NotFound');
        if (!request.isMultipart()) throw new AppError('ValidationError', 'file: send the firmware as multipart form data');
        const file = await request.file();
        if (!file) throw new AppError('ValidationError', 'file: is required');
        return saveFirmwareFile(deps, store, ref.id, request.query.firmwareName ?? file.filename, file.file);
      },
    );
    app.delete(
      '/content/firmware',
      { schema: { tags: content, querystring: FirmwareFileDeleteQuery, response: { 200: OkSchema } } },
      async (request) => {
        const ref = await authorizeHardware(db, request, request.query.hardwareId, 'operate');
        if (ref.siteId !== request.query.siteId) throw new AppError('NotFound');
        await deleteFirmwareFile(deps, store, ref.id, request.query.firmware);
        return { ok: true as const };
      },
    );

    // ---- The board's own download (Basic auth: hardware id and token) ----
    app.get('/hardware-device/firmware/:id', { schema: { tags: ['device'], params: IdParams } }, async (request, reply) => {
      const row = await authorizeFirmwareDownload(deps, request.params.id, request.headers.authorization);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(row.fileSize))
        .header('x-checksum-sha256', row.sha256)
        .send(store.open(row.hardwareId, row.fileName));
    });
  };
}
