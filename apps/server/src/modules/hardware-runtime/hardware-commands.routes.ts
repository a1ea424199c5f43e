import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BoardPropParams, CommandResultSchema, HardwareCommandParams, PeripheralPropParams, SetPropBody, UpdatePropBody } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { actorOf } from '../auth/actor.js';
import { AppError } from '../../lib/app-error.js';
import { authorizeHardware } from '../access/hardware-access.js';
import { runHardwareCommand, setHardwareProp } from './hardware-commands.service.js';

/** Commands to a live board (reboot, identify, get…) and prop sets on its peripherals; each waits for the board's result. */
export function hardwareCommandRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = deps;
    const tags = ['hardware'];

    app.get(
      '/hardware-mgmt/hardware/:id/:command',
      { schema: { tags, params: HardwareCommandParams, response: { 200: CommandResultSchema } } },
      async (request) => {
        await authorizeHardware(db, await request.grants(), { hardwareId: request.params.id, right: 'operate' });
        return runHardwareCommand(deps, request.params.id, { command: request.params.command, by: actorOf(request).label });
      },
    );
    app.put(
      '/hardware-mgmt/peripheral/:hardwareId/:peripheralId/:propName',
      { schema: { tags, params: BoardPropParams, body: SetPropBody, response: { 200: CommandResultSchema } } },
      async (request) => {
        const { hardwareId, peripheralId, propName } = request.params;
        if (request.body.hardwareId !== undefined && request.body.hardwareId !== hardwareId) {
          throw new AppError('ValidationError', 'hardwareId: must be the hardware named in the path');
        }
        await authorizeHardware(db, await request.grants(), { hardwareId: hardwareId, right: 'operate' });
        return setHardwareProp(deps, hardwareId, { peripheralId, propName, value: request.body.value, by: actorOf(request).label });
      },
    );
    app.put(
      '/hardware-mgmt/peripheral/:peripheralId/:propName',
      { schema: { tags, params: PeripheralPropParams, body: UpdatePropBody, response: { 200: CommandResultSchema } } },
      async (request) => {
        await authorizeHardware(db, await request.grants(), { hardwareId: request.body.hardwareId, right: 'operate' });
        const { peripheralId, propName } = request.params;
        return setHardwareProp(deps, request.body.hardwareId, { peripheralId, propName, value: request.body.value, by: actorOf(request).label });
      },
    );
  };
}
