import { type Hardware, type Right, type Role } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { fieldChanges } from '../audit/audit-chain.js';
import type { AuditContext } from '../audit/audit-context.js';
import { recordHardwareChange } from '../audit/audit-record.js';
import { removeStoredObjects } from '../content/stored-objects.service.js';
import { recordExhibit, recordHardware } from '../logging/records.js';
import { AppError } from '../../lib/app-error.js';
import { assertRight, type Grants } from '../access/grants.js';
import { findExhibitRefs, findSiteRef } from '../access/refs.repository.js';
import { assertSiteRight } from '../exhibit/exhibit.service.js';
import { presentHardware } from './hardware.presenter.js';
import {
  deleteHardwareRow,
  findHardwareRecord,
  insertHardware,
  listHardwareRecords,
  updateHardwareRow,
  type HardwareRecord,
  type HardwareScope,
} from './hardware.repository.js';

export type HardwareQuery = { siteId?: string; siteIds?: string[]; exhibitId?: string };
export type HardwareUpdate = { name?: string; exhibitId?: string | null; controlDebug?: boolean };

/** The right each updatable field needs (design.md section 3). */
const UPDATE_RIGHTS: Record<keyof HardwareUpdate, Right> = {
  name: 'manageDevices',
  exhibitId: 'manageDevices',
  controlDebug: 'operate',
};

function scopeOf(grants: Grants): HardwareScope {
  if (grants.isPlatformAdmin) return null;
  return {
    organizationIds: [...grants.organizations.keys()],
    siteIds: [...grants.sites.keys()],
    exhibitIds: [...grants.exhibits.keys()],
  };
}

function roleOn(grants: Grants, record: HardwareRecord): Role | null {
  return grants.hardwareRole({
    id: record.id,
    siteId: record.siteId,
    organizationId: record.organizationId,
    exhibitId: record.exhibitId,
  });
}

function presentVisible(grants: Grants, records: HardwareRecord[]): Hardware[] {
  return records.flatMap((record) => {
    const role = roleOn(grants, record);
    return role ? [presentHardware(record, role)] : [];
  });
}

async function visibleHardware(deps: AppDeps, grants: Grants, id: string): Promise<{ record: HardwareRecord; role: Role }> {
  const record = await findHardwareRecord(deps.db, id);
  const role = record ? roleOn(grants, record) : null;
  if (!record || !role) throw new AppError('NotFound');
  return { record, role };
}

/**
 * The hardware the caller may see in a site, several sites or attached to an exhibit. A single
 * site or exhibit the caller cannot see answers 404; in a list of sites they add nothing.
 */
export async function listHardware(deps: AppDeps, grants: Grants, query: HardwareQuery): Promise<Hardware[]> {
  if (query.siteId) {
    const site = await findSiteRef(deps.db, query.siteId);
    if (!site || !grants.isSiteVisible({ id: site.id, organizationId: site.organizationId })) throw new AppError('NotFound');
  }
  if (query.exhibitId) {
    const [exhibit] = await findExhibitRefs(deps.db, [query.exhibitId]);
    if (!exhibit || !grants.exhibitRole(exhibit)) throw new AppError('NotFound');
  }
  const siteIds =
    query.siteId || query.siteIds ? [...new Set([...(query.siteId ? [query.siteId] : []), ...(query.siteIds ?? [])])] : undefined;
  const records = await listHardwareRecords(deps.db, scopeOf(grants), { siteIds, exhibitId: query.exhibitId });
  return presentVisible(grants, records);
}

export async function getHardware(deps: AppDeps, grants: Grants, id: string): Promise<Hardware> {
  const { record, role } = await visibleHardware(deps, grants, id);
  return presentHardware(record, role);
}

/** Creates a hardware unit in a site (needs the right to manage devices there). */
export async function createHardware(deps: AppDeps, grants: Grants, input: { name: string; siteId: string; audit: AuditContext }): Promise<Hardware> {
  await assertSiteRight(deps, grants, { siteId: input.siteId, right: 'manageDevices' });
  const board = await insertHardware(deps.db, { siteId: input.siteId, name: input.name });
  const after = { name: input.name, siteId: input.siteId };
  await recordHardwareChange(deps, input.audit, { hardwareId: board.id, resource: 'hardware', resourceId: board.id, action: 'create', after });
  return getHardware(deps, grants, board.id);
}

/**
 * Renames the hardware, connects it to an exhibit of its site (or disconnects it), or switches
 * debug mode (turning it on needs the board online: 409 HardwareOffline).
 */
export async function updateHardware(
  deps: AppDeps,
  grants: Grants,
  change: HardwareUpdate & { id: string; by?: string; audit?: AuditContext },
): Promise<Hardware> {
  const { id, by, audit, ...update } = change;
  const { record, role } = await visibleHardware(deps, grants, id);
  const fields = (Object.keys(UPDATE_RIGHTS) as (keyof HardwareUpdate)[]).filter((key) => update[key] !== undefined);
  for (const field of fields) assertRight(role, UPDATE_RIGHTS[field]);
  if (update.exhibitId) {
    const [exhibit] = await findExhibitRefs(deps.db, [update.exhibitId]);
    if (!exhibit || exhibit.siteId !== record.siteId || !grants.exhibitRole(exhibit)) {
      throw new AppError('ValidationError', 'exhibitId: the exhibit must be in the same site as the hardware.');
    }
  }
  // The gateway stores debug mode, tells the consoles (hardware.debug) and the board; on needs the board online.
  if (update.controlDebug !== undefined) {
    await deps.hardwareGateway.setDebug(id, update.controlDebug);
    recordHardware(deps.logs, id, { eventType: 'debug', message: `Debug mode ${update.controlDebug ? 'on' : 'off'} by ${by ?? 'the server'}` });
  }
  if (update.name !== undefined || update.exhibitId !== undefined) {
    await updateHardwareRow(deps.db, id, { name: update.name, exhibitId: update.exhibitId });
  }
  if (update.exhibitId !== undefined && update.exhibitId !== record.exhibitId) recordAttachment(deps, { record, to: update.exhibitId, by });
  const changed = fieldChanges<HardwareUpdate>(record, update);
  if (audit && changed) {
    await recordHardwareChange(deps, audit, { hardwareId: id, resource: 'hardware', resourceId: id, action: 'update', before: changed.before, after: changed.after });
  }
  deps.hub.publish('hardware', id, { type: 'hardware.updated', hardwareId: id });
  const updated = (await findHardwareRecord(deps.db, id))!;
  // Disconnecting from the exhibit that granted the caller access still answers the result once.
  return presentHardware(updated, roleOn(grants, updated) ?? role);
}

/** The exhibits' own record of hardware connected to or disconnected from them (their users may be told). */
function recordAttachment(deps: AppDeps, change: { record: { name: string; exhibitId: string | null }; to: string | null; by?: string }): void {
  const { record, to } = change;
  const by = change.by ?? 'the server';
  if (record.exhibitId) recordExhibit(deps.logs, record.exhibitId, { eventType: 'hardware', message: `Hardware "${record.name}" disconnected by ${by}` });
  if (to) recordExhibit(deps.logs, to, { eventType: 'hardware', message: `Hardware "${record.name}" connected by ${by}` });
}

export async function deleteHardware(deps: AppDeps, grants: Grants, target: { id: string; audit: AuditContext }): Promise<void> {
  const { id } = target;
  const { record, role } = await visibleHardware(deps, grants, id);
  assertRight(role, 'manageDevices');
  const before = { name: record.name, siteId: record.siteId, exhibitId: record.exhibitId };
  await recordHardwareChange(deps, target.audit, { hardwareId: id, resource: 'hardware', resourceId: id, action: 'delete', before });
  await deleteHardwareRow(deps.db, id);
  await removeStoredObjects(deps, { exhibitIds: [], hardwareIds: [id] });
  await deps.hardwareGateway.hardwareDeleted(id);
  deps.hub.publish('hardware', id, { type: 'hardware.deleted', hardwareId: id });
}
