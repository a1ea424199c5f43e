import type { GatewayMessage, ManifestResponse, OpMode } from '@plinth/shared';
import { presentOpModeChanged } from './exhibit-events.presenter.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import type { ItemAccess } from '../access/item-access.js';
import type { AuditContext } from '../audit/audit-context.js';
import { recordExhibitChange } from '../audit/audit-record.js';
import { recordExhibit } from '../logging/records.js';
import {
  findControl,
  findControlItemManifestId,
  findExhibitState,
  findManifestUpdatedAt,
  loadRuntimeRows,
  updateOpMode,
  type ControlRow,
  type ExhibitRuntimeRows,
  type ExhibitState,
} from './exhibit-runtime.repository.js';
import { presentManifest, type ManifestRights } from './manifest.presenter.js';
import { presentControlFired, presentOpModeMessage, presentSdkList, presentSettingRowMessage, presentSync } from './sdk-messages.presenter.js';

/**
 * The console's runtime view of an exhibit: the manifest with live values, controls, the op mode.
 * Settings and lists are in exhibit-settings.service.ts, what the exhibit sends in
 * exhibit-ingest.service.ts.
 */

/** The exhibit's runtime state, or 404 when it does not exist. */
export async function getExhibitState(deps: AppDeps, exhibitId: string): Promise<ExhibitState> {
  const state = await findExhibitState(deps.db, exhibitId);
  if (!state) throw new AppError('NotFound', 'The exhibit does not exist.');
  return state;
}

/** GET .../manifest: the manifest with live values, as far as the caller may see it; the op mode reads Off while offline. */
export async function getManifest(deps: AppDeps, exhibitId: string, rights: ManifestRights): Promise<ManifestResponse> {
  const state = await getExhibitState(deps, exhibitId);
  const [rows, updatedAt] = await Promise.all([loadRuntimeRows(deps.db, exhibitId), findManifestUpdatedAt(deps.db, exhibitId)]);
  return {
    manifest: presentManifest(rows, exhibitId, rights),
    opMode: state.online ? state.opMode : 'Off',
    online: state.online,
    manifestLocked: state.manifestLocked,
    updatedAt: updatedAt?.toISOString() ?? null,
  };
}

/** Sends every current value (and the op mode) to the exhibit, if it is online (on any node); answers the rows it read. */
export async function pushSync(deps: AppDeps, exhibitId: string): Promise<ExhibitRuntimeRows> {
  const [state, rows] = await Promise.all([getExhibitState(deps, exhibitId), loadRuntimeRows(deps.db, exhibitId)]);
  if (state.online) deps.exhibitGateway.send(exhibitId, presentSync(rows, state.opMode));
  return rows;
}

/**
 * What an exhibit may have missed while this node's link to the other nodes was down (saves made
 * on another node reach a held exhibit through the hub): each plain setting and each list it has
 * not acknowledged yet, and the op mode. The SDK ignores a value it already has, so a message too
 * many costs nothing; a whole `sync` would instead read to the exhibit as a new connection.
 */
export async function listUnappliedMessages(deps: AppDeps, exhibitId: string): Promise<GatewayMessage[]> {
  const [state, rows] = await Promise.all([findExhibitState(deps.db, exhibitId), loadRuntimeRows(deps.db, exhibitId)]);
  if (!state) return [];
  const settings = rows.settings
    .filter((s) => s.listManifestId === '' && s.appliedVersion < s.version)
    .map(presentSettingRowMessage);
  const lists = rows.lists
    .filter((l) => rows.listItems.some((i) => i.listId === l.id && i.appliedVersion < i.version))
    .map((l) => presentSdkList(l, rows.listItems));
  return [...settings, ...lists, presentOpModeMessage(state.opMode)];
}

/**
 * A control to fire: by row id or manifest id, and for a group control the item's; `by` is who
 * fired it (an email), `access` what they may fire (SERVER_ITEM_ACCESS when the server fires it).
 */
export type ControlFire = { controlId: string; itemId?: string; by: string; access: ItemAccess };

/**
 * Fires a control; the exhibit must be online, as the database says, whichever node holds its
 * connection (409 ExhibitOffline otherwise). Delivered or not, it goes in the exhibit's log.
 */
export async function fireControl(deps: AppDeps, exhibitId: string, fire: ControlFire): Promise<void> {
  const named = fire.itemId ? `${fire.controlId}/${fire.itemId}` : fire.controlId;
  try {
    await sendControl(deps, exhibitId, fire);
  } catch (error) {
    // A control or item that does not exist was never fired; one the exhibit could not take was.
    if (error instanceof AppError && (error.code === 'NotFound' || error.code === 'ValidationError')) throw error;
    const reason = error instanceof AppError ? error.message : 'the server could not send it';
    recordExhibit(deps.logs, exhibitId, { eventType: 'control', level: 'warn', message: `Control "${named}" fired by ${fire.by}: failed (${reason})` });
    throw error;
  }
  recordExhibit(deps.logs, exhibitId, { eventType: 'control', message: `Control "${named}" fired by ${fire.by}: delivered` });
}

async function sendControl(deps: AppDeps, exhibitId: string, fire: ControlFire): Promise<void> {
  const state = await getExhibitState(deps, exhibitId);
  const control = await findControl(deps.db, exhibitId, fire.controlId);
  if (!control) throw new AppError('NotFound', `The control "${fire.controlId}" does not exist.`);
  fire.access.assertWrite('control', control.manifestId);
  const item = await findItemToFire(deps, control, fire.itemId);
  if (control.enabledOpMode !== 'none' && state.online && control.enabledOpMode !== state.opMode) {
    throw new AppError('Conflict', `The control "${control.display}" is only available when the op mode is ${control.enabledOpMode}.`);
  }
  if (!state.online) throw new AppError('ExhibitOffline');
  deps.exhibitGateway.send(exhibitId, presentControlFired({ manifestId: control.manifestId, itemId: item }));
}

/** The manifest id of the group item to fire: a group needs one of its items, a single control none. */
async function findItemToFire(deps: AppDeps, control: ControlRow, itemId: string | undefined): Promise<string | undefined> {
  if (control.type !== 'Group') {
    if (itemId) throw new AppError('ValidationError', `itemId: the control "${control.manifestId}" has no items`);
    return undefined;
  }
  if (!itemId) throw new AppError('ValidationError', `itemId: the control "${control.manifestId}" is a group; name one of its items`);
  const item = await findControlItemManifestId(deps.db, control.id, itemId);
  if (!item) throw new AppError('ValidationError', `itemId: the control "${control.manifestId}" has no item "${itemId}"`);
  return item;
}

/** The console switched the op mode (`by`: who, an email): stored, pushed to the exhibit, published to consoles, logged. */
export async function setOpMode(deps: AppDeps, exhibitId: string, change: { mode: OpMode; by: string; audit?: AuditContext }): Promise<void> {
  const { mode, by } = change;
  // Only a person's change is recorded; the state before it is read for that record.
  const before = change.audit ? (await getExhibitState(deps, exhibitId)).opMode : null;
  await updateOpMode(deps.db, exhibitId, mode);
  if (change.audit) {
    await recordExhibitChange(deps, change.audit, { exhibitId, resource: 'exhibit', resourceId: exhibitId, action: 'opMode', before: { opMode: before }, after: { opMode: mode } });
  }
  deps.exhibitGateway.send(exhibitId, presentOpModeMessage(mode));
  deps.hub.publish('exhibit', exhibitId, presentOpModeChanged({ exhibitId, opMode: mode }));
  recordExhibit(deps.logs, exhibitId, { eventType: 'opMode', message: `Op mode set to ${mode} by ${by}` });
}
