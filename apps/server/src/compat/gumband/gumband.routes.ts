import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { findUnsafeText, describeUnsafeText } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { SERVER_ITEM_ACCESS } from '../../modules/access/item-access.js';
import { openDownload } from '../../modules/content/file-download.service.js';
import { exhibitFileList, pushExhibitFiles } from '../../modules/content/files.service.js';
import { setManifestLockByExhibit } from '../../modules/exhibit/exhibit.service.js';
import { recordEvent, recordLogs, recordOpMode, recordStatus, statusSourceOfCall } from '../../modules/exhibit-runtime/exhibit-ingest.service.js';
import { getExhibitState, getManifest, pushSync } from '../../modules/exhibit-runtime/exhibit-runtime.service.js';
import { saveSetting } from '../../modules/exhibit-runtime/exhibit-settings.service.js';
import { ingestManifest } from '../../modules/exhibit-runtime/manifest-ingest.service.js';
import { EXHIBIT_NOTIFICATION } from '../../modules/notifications/notification-triggers.js';
import { authorizeGumbandExhibit, signIn } from './gumband-auth.js';
import {
  AuthenticateBody,
  EmailBody,
  EventBody,
  ExhibitParams,
  ExhibitQuery,
  FileQuery,
  ItemParams,
  LockBody,
  LogBody,
  OpModeBody,
  SettingBody,
  StatusBody,
} from './gumband-contract.js';
import { findGumbandSetting, gumbandValue, presentGumbandManifest } from './gumband.presenter.js';
import { convertGumbandManifest, ManifestConversionError, GROUP_SEPARATOR } from './manifest-converter.js';

const SUCCESS = { response: 'success' } as const;
const BY_EXHIBIT = 'the exhibit (Gumband SDK)';

/** Checks a part of the request with its schema (400 naming the field) and for text PostgreSQL cannot store. */
function parse<S extends z.ZodType>(schema: S, input: unknown, part: string): z.output<S> {
  const unsafe = findUnsafeText(input);
  if (unsafe) throw new AppError('ValidationError', describeUnsafeText(unsafe, part));
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new AppError('ValidationError', `${part}.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
}

/** The exhibit a call names, once the cookie proved it is that exhibit (403 otherwise). */
type ExhibitOf = (request: FastifyRequest, id: string) => Promise<string>;

/**
 * The REST calls of the Gumband SDK (docs/gumband-compatibility.md), each answered by one of
 * Plinth's services for the exhibit the `exhibitToken` cookie names.
 */
export function gumbandRoutes(deps: AppDeps) {
  const exhibitOf: ExhibitOf = async (request, id) => {
    await authorizeGumbandExhibit(deps, request, id);
    return id;
  };
  return async (app: FastifyInstance): Promise<void> => {
    app.post('/auth/exhibit/authenticate', async (request, reply) => {
      await signIn(deps, reply, parse(AuthenticateBody, request.body, 'body'));
      return SUCCESS;
    });
    await app.register(exhibitManagementRoutes(deps, exhibitOf));
    await app.register(exhibitItemRoutes(deps, exhibitOf));
    await app.register(serviceRoutes(deps, exhibitOf));
  };
}

/** exhibit-management: the exhibit, its lock, its manifest. */
function exhibitManagementRoutes(deps: AppDeps, exhibitOf: ExhibitOf) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get('/exhibit-management/exhibit/:id', async (request) => {
      const exhibitId = await exhibitOf(request, parse(ExhibitParams, request.params, 'params').id);
      const state = await getExhibitState(deps, exhibitId);
      return { ...SUCCESS, exhibit: { id: exhibitId, opMode: state.opMode, online: state.online, manifestLocked: state.manifestLocked } };
    });

    app.put('/exhibit-management/exhibit/:id', async (request) => {
      const exhibitId = await exhibitOf(request, parse(ExhibitParams, request.params, 'params').id);
      const { manifestLocked } = parse(LockBody, request.body, 'body');
      await setManifestLockByExhibit(deps, exhibitId, manifestLocked);
      return SUCCESS;
    });

    app.post('/exhibit-management/exhibit/:id/manifest', async (request) => {
      const exhibitId = await exhibitOf(request, parse(ExhibitParams, request.params, 'params').id);
      const unsafe = findUnsafeText(request.body);
      if (unsafe) throw new AppError('ValidationError', describeUnsafeText(unsafe, 'manifest'));
      // `setManifest()` without a file sends back the copy the SDK read from this server: nothing to change.
      if (isServerCopy(request.body)) return { ...SUCCESS, changes: [] };
      let converted;
      try {
        converted = convertGumbandManifest(request.body);
      } catch (error) {
        if (error instanceof ManifestConversionError) throw new AppError('ValidationError', error.message);
        throw error;
      }
      // 406 NotAcceptable when the exhibit is locked and the structure changed (the SDK logs it).
      const changed = await ingestManifest(deps, exhibitId, converted.manifest);
      if (changed) deps.hub.publish('exhibit', exhibitId, { type: 'exhibit.manifestChanged', exhibitId });
      await pushSync(deps, exhibitId);
      pushExhibitFiles(deps, exhibitId);
      return { ...SUCCESS, changes: converted.changes };
    });

    app.get('/exhibit-management/exhibit/:id/manifest', async (request) => {
      const exhibitId = await exhibitOf(request, parse(ExhibitParams, request.params, 'params').id);
      return { ...SUCCESS, ...presentGumbandManifest(exhibitId, await getManifest(deps, exhibitId, SERVER_ITEM_ACCESS)) };
    });
  };
}

/** exhibit-management: statuses, settings and the op mode, by the ids of the SDK's manifest. */
function exhibitItemRoutes(deps: AppDeps, exhibitOf: ExhibitOf) {
  return async (app: FastifyInstance): Promise<void> => {
    app.post('/exhibit-management/exhibit/:id/status/:itemId', async (request) => {
      const params = parse(ItemParams, request.params, 'params');
      const exhibitId = await exhibitOf(request, params.id);
      const { value } = parse(StatusBody, request.body, 'body');
      await setStatus(deps, exhibitId, { statusId: params.itemId.split('/').join(GROUP_SEPARATOR), value });
      return SUCCESS;
    });

    app.get('/exhibit-management/exhibit/:id/status/:itemId', async (request) => {
      const params = parse(ItemParams, request.params, 'params');
      const exhibitId = await exhibitOf(request, params.id);
      const manifest = presentGumbandManifest(exhibitId, await getManifest(deps, exhibitId, SERVER_ITEM_ACCESS)).manifest;
      const status = manifest.statuses.find((s) => s.id === params.itemId || s.manifestId === params.itemId);
      if (!status) throw new AppError('NotFound', `The status "${params.itemId}" does not exist.`);
      return { ...SUCCESS, status };
    });

    for (const path of ['setting', 'strapi-content']) {
      app.get(`/exhibit-management/exhibit/:id/${path}/:itemId`, async (request) => {
        const params = parse(ItemParams, request.params, 'params');
        const exhibitId = await exhibitOf(request, params.id);
        const setting = findGumbandSetting(await getManifest(deps, exhibitId, SERVER_ITEM_ACCESS), params.itemId);
        if (!setting) throw new AppError('NotFound', `The setting "${params.itemId}" does not exist.`);
        return { ...SUCCESS, setting };
      });
    }

    app.post('/exhibit-management/exhibit/:id/setting/:itemId', async (request) => {
      const params = parse(ItemParams, request.params, 'params');
      const exhibitId = await exhibitOf(request, params.id);
      const { value } = parse(SettingBody, request.body, 'body');
      const setting = findGumbandSetting(await getManifest(deps, exhibitId, SERVER_ITEM_ACCESS), params.itemId);
      if (!setting) throw new AppError('NotFound', `The setting "${params.itemId}" does not exist.`);
      await saveSetting(deps, exhibitId, { settingId: setting.id, value: typedValue(setting.type, value), by: BY_EXHIBIT, access: SERVER_ITEM_ACCESS });
      return SUCCESS;
    });

    app.post('/exhibit-management/exhibit/:id/opMode', async (request) => {
      const exhibitId = await exhibitOf(request, parse(ExhibitParams, request.params, 'params').id);
      await recordOpMode(deps, exhibitId, parse(OpModeBody, request.body, 'body').opMode);
      return SUCCESS;
    });
  };
}

/** The other services: logging, reporting, notifications, content, hardware. */
function serviceRoutes(deps: AppDeps, exhibitOf: ExhibitOf) {
  return async (app: FastifyInstance): Promise<void> => {
    app.post('/logging/exhibit', async (request) => {
      const body = parse(LogBody, request.body, 'body');
      const exhibitId = await exhibitOf(request, body.exhibitId);
      await recordLogs(deps, exhibitId, [{ level: body.type, message: body.message, timestamp: deps.clock.now().toISOString() }]);
      return SUCCESS;
    });

    app.post('/reporting/exhibit/event', async (request) => {
      const body = parse(EventBody, request.body, 'body');
      const exhibitId = await exhibitOf(request, body.exhibitId);
      await recordEvent(deps, exhibitId, { name: body.name, data: body.data ?? null, timestamp: deps.clock.now().toISOString() });
      return SUCCESS;
    });

    app.post('/notifications/email', async (request) => {
      const body = parse(EmailBody, request.body, 'body');
      const exhibitId = await exhibitOf(request, body.exhibitId);
      // A line of the exhibit's log; the notification triggers mail it to the users who take the exhibit's notifications.
      deps.logs.record({ source: 'exhibit', deviceId: exhibitId, level: 'warn', eventType: EXHIBIT_NOTIFICATION, message: body.message });
      return SUCCESS;
    });

    app.get('/content/files/ls', async (request) => {
      const exhibitId = await exhibitOf(request, parse(ExhibitQuery, request.query, 'query').exhibitId);
      const { files } = await exhibitFileList(deps, exhibitId);
      return {
        ...SUCCESS,
        files: files.map((f) => ({ file: f.name, hash: f.sha256, size: f.size, lastUpdated: f.updated_at })),
      };
    });

    app.get('/content/files', async (request, reply) => {
      const query = parse(FileQuery, request.query, 'query');
      const exhibitId = await exhibitOf(request, query.exhibitId);
      const download = await openDownload(deps, { exhibitId, fileName: query.fileName, grants: null, headers: {}, verifiedExhibit: true });
      void reply.code(download.status).headers(download.headers);
      if (download.error) return reply.send(download.error);
      return reply.send(download.body ?? undefined);
    });

    app.get('/hardware-mgmt/hardware', async (request) => {
      await exhibitOf(request, parse(ExhibitQuery, request.query, 'query').exhibitId);
      // Plinth's boards speak MQTT to Plinth itself, not to the exhibit's SDK (GBTT): none are handed to it.
      return { ...SUCCESS, hardware: [] };
    });
  };
}

/** A status value: Integer statuses take numbers (the SDK may send "3"), the others text. */
async function setStatus(deps: AppDeps, exhibitId: string, change: { statusId: string; value: unknown }): Promise<void> {
  const { statusId, value } = change;
  const source = statusSourceOfCall(deps, exhibitId);
  const sent = typeof value === 'number' ? value : (gumbandValue(value) ?? null);
  let problem = await recordStatus(deps, source, { id: statusId, value: sent });
  if (problem?.includes('needs a number') && typeof sent === 'string' && sent.trim() !== '' && Number.isFinite(Number(sent))) {
    problem = await recordStatus(deps, source, { id: statusId, value: Number(sent) });
  } else if (problem?.includes('needs text') && typeof sent === 'number') {
    problem = await recordStatus(deps, source, { id: statusId, value: String(sent) });
  }
  if (problem?.startsWith('Unknown status')) throw new AppError('NotFound', problem);
  if (problem) throw new AppError('ValidationError', problem);
}

/** The manifest as GET .../manifest answers it (presentGumbandManifest marks it with the exhibit's id and lock). */
function isServerCopy(body: unknown): boolean {
  const marked = (value: unknown) => typeof value === 'object' && value !== null && 'exhibitId' in value && 'manifestLocked' in value;
  return marked(body) || (typeof body === 'object' && body !== null && 'manifest' in body && marked(body.manifest));
}

/** A value the SDK sent (often text) in the setting's type; anything else is left for the setting's own check. */
function typedValue(type: string, value: string | number | boolean | null): unknown {
  if (type === 'Toggle' && (value === 'true' || value === 'false')) return value === 'true';
  if (type === 'IntegerInput' && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if ((type === 'TextInput' || type === 'TextAreaInput') && (typeof value === 'number' || typeof value === 'boolean')) return String(value);
  return value;
}
