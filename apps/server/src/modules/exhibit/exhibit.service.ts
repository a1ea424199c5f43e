import { type Exhibit, type Right, type Role } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { assertRight, type Grants, type SiteRef } from '../access/grants.js';
import type { AuditContext } from '../audit/audit-context.js';
import { fieldChanges } from '../audit/audit-chain.js';
import { recordExhibitChange } from '../audit/audit-record.js';
import { findSiteRef } from '../access/refs.repository.js';
import { pushExhibitFiles } from '../content/files.service.js';
import { removeStoredObjects } from '../content/stored-objects.service.js';
import { notifyExhibitDeleted } from '../notifications/notifications.service.js';
import { presentExhibit } from './exhibit.presenter.js';
import {
  deleteExhibitRow,
  findExhibitRecord,
  findLinkedExhibits,
  insertExhibit,
  listExhibitRecords,
  listFollowers,
  updateExhibitRow,
  type ExhibitRecord,
  type ExhibitScope,
} from './exhibit.repository.js';

export type ExhibitUpdate = {
  name?: string;
  mqttPath?: string;
  leaderId?: string | null;
  manifestLocked?: boolean;
};

/** The right each updatable field needs (design.md section 3). */
const UPDATE_RIGHTS: Record<keyof ExhibitUpdate, Right> = {
  name: 'manageDevices',
  mqttPath: 'operate',
  leaderId: 'operate',
  manifestLocked: 'operate',
};

export const LOCKED_EXHIBIT_MESSAGE = 'This exhibit cannot be deleted because it is locked.';

function scopeOf(grants: Grants): ExhibitScope {
  if (grants.isPlatformAdmin) return null;
  return {
    organizationIds: [...grants.organizations.keys()],
    siteIds: [...grants.sites.keys()],
    exhibitIds: [...grants.exhibits.keys()],
  };
}

function roleOn(grants: Grants, record: { id: string; siteId: string; organizationId: string }): Role | null {
  return grants.exhibitRole({ id: record.id, siteId: record.siteId, organizationId: record.organizationId });
}

/** Presents records the caller may see, with their visible leaders and followers. */
async function presentAll(deps: AppDeps, grants: Grants, records: ExhibitRecord[]): Promise<Exhibit[]> {
  const visible = records.flatMap((record) => {
    const role = roleOn(grants, record);
    return role ? [{ record, role }] : [];
  });
  if (!visible.length) return [];
  const leaderIds = [...new Set(visible.map((v) => v.record.leaderId).filter((id): id is string => Boolean(id)))];
  const [followers, leaders] = await Promise.all([
    listFollowers(deps.db, visible.map((v) => v.record.id)),
    findLinkedExhibits(deps.db, leaderIds),
  ]);
  return visible.map(({ record, role }) => {
    const sees = (linked: { id: string; siteId: string }) =>
      roleOn(grants, { id: linked.id, siteId: linked.siteId, organizationId: record.organizationId }) !== null;
    const leader = leaders.find((l) => l.id === record.leaderId && sees(l)) ?? null;
    return presentExhibit(record, { role, leader, followers: followers.filter((f) => f.leaderId === record.id && sees(f)) });
  });
}

/** The exhibit with the caller's role on it; 404 when unknown or invisible to the caller. */
async function visibleExhibit(deps: AppDeps, grants: Grants, id: string): Promise<{ record: ExhibitRecord; role: Role }> {
  const record = await findExhibitRecord(deps.db, id);
  const role = record ? roleOn(grants, record) : null;
  if (!record || !role) throw new AppError('NotFound');
  return { record, role };
}

async function presentOne(deps: AppDeps, grants: Grants, id: string): Promise<Exhibit> {
  const { record } = await visibleExhibit(deps, grants, id);
  const [exhibit] = await presentAll(deps, grants, [record]);
  return exhibit!;
}

/** Every exhibit the caller may see. */
export async function listExhibits(deps: AppDeps, grants: Grants): Promise<Exhibit[]> {
  return presentAll(deps, grants, await listExhibitRecords(deps.db, scopeOf(grants)));
}

/** The visible exhibits of some sites; sites the caller cannot see simply add nothing. */
export async function listExhibitsBySites(deps: AppDeps, grants: Grants, siteIds: string[]): Promise<Exhibit[]> {
  return presentAll(deps, grants, await listExhibitRecords(deps.db, scopeOf(grants), [...new Set(siteIds)]));
}

export async function getExhibit(deps: AppDeps, grants: Grants, id: string): Promise<Exhibit> {
  return presentOne(deps, grants, id);
}

/**
 * Throws unless the caller's effective role on the site allows `right`: 404 for a site the
 * caller cannot see, 403 for one seen only through an exhibit grant or with too low a role.
 */
export async function assertSiteRight(deps: AppDeps, grants: Grants, { siteId, right }: { siteId: string; right: Right }) {
  const site = await findSiteRef(deps.db, siteId);
  if (!site) throw new AppError('NotFound');
  const ref: SiteRef = { id: site.id, organizationId: site.organizationId };
  const role = grants.siteRole(ref);
  if (!role && grants.isSiteVisible(ref)) throw new AppError('Forbidden');
  assertRight(role, right);
  return site;
}

/** Creates an exhibit in a site (needs the right to manage devices there). */
export async function createExhibit(
  deps: AppDeps,
  grants: Grants,
  input: { name: string; siteId: string; mqttPath?: string; audit: AuditContext },
): Promise<Exhibit> {
  await assertSiteRight(deps, grants, { siteId: input.siteId, right: 'manageDevices' });
  const exhibit = await insertExhibit(deps.db, { siteId: input.siteId, name: input.name, mqttPath: input.mqttPath ?? '' });
  const after = { name: exhibit.name, siteId: input.siteId, mqttPath: exhibit.mqttPath };
  await recordExhibitChange(deps, input.audit, { exhibitId: exhibit.id, resource: 'exhibit', resourceId: exhibit.id, action: 'create', after });
  return presentOne(deps, grants, exhibit.id);
}

/** Checks a new leader: same site, visible, not the exhibit itself, not a follower; and the exhibit leads no one. */
async function assertLeader(deps: AppDeps, grants: Grants, { record, leaderId }: { record: ExhibitRecord; leaderId: string }): Promise<void> {
  if (leaderId === record.id) throw new AppError('ValidationError', 'leaderId: an exhibit cannot be its own leader.');
  const [leader] = await findLinkedExhibits(deps.db, [leaderId]);
  const visible = leader && roleOn(grants, { id: leader.id, siteId: leader.siteId, organizationId: record.organizationId });
  if (!leader || leader.siteId !== record.siteId || !visible) {
    throw new AppError('ValidationError', 'leaderId: the leader must be an exhibit of the same site.');
  }
  if (leader.leaderId) {
    throw new AppError('ValidationError', `leaderId: ${leader.name} follows another exhibit, so it cannot be a leader.`);
  }
  const followers = await listFollowers(deps.db, [record.id]);
  if (followers.length) {
    throw new AppError(
      'ValidationError',
      'leaderId: this exhibit leads other exhibits; remove its followers before it follows another exhibit.',
    );
  }
}

/** The exhibit (un)locked its own manifest (its SDK asked, with its credential): stored and announced. */
export async function setManifestLockByExhibit(deps: AppDeps, exhibitId: string, manifestLocked: boolean): Promise<void> {
  await updateExhibitRow(deps.db, exhibitId, { manifestLocked });
  deps.hub.publish('exhibit', exhibitId, { type: 'exhibit.updated', exhibitId });
}

/** Renames, re-addresses, re-leads or (un)locks an exhibit; each field needs its own right. */
export async function updateExhibit(deps: AppDeps, grants: Grants, change: ExhibitUpdate & { id: string; audit: AuditContext }): Promise<Exhibit> {
  const { id, audit, ...update } = change;
  const { record, role } = await visibleExhibit(deps, grants, id);
  const fields = (Object.keys(UPDATE_RIGHTS) as (keyof ExhibitUpdate)[]).filter((key) => update[key] !== undefined);
  for (const field of fields) assertRight(role, UPDATE_RIGHTS[field]);
  if (update.leaderId) await assertLeader(deps, grants, { record, leaderId: update.leaderId });
  await updateExhibitRow(deps.db, id, {
    name: update.name,
    mqttPath: update.mqttPath,
    leaderId: update.leaderId,
    manifestLocked: update.manifestLocked,
  });
  await recordExhibitUpdate(deps, audit, { record, update });
  const touched = new Set([id]);
  if (update.leaderId !== undefined) {
    if (record.leaderId) touched.add(record.leaderId);
    if (update.leaderId) touched.add(update.leaderId);
  }
  for (const exhibitId of touched) deps.hub.publish('exhibit', exhibitId, { type: 'exhibit.updated', exhibitId });
  // A follower holds its leader's files: a new leader (or none) means another set of files.
  if (update.leaderId !== undefined && update.leaderId !== record.leaderId) pushExhibitFiles(deps, id);
  return presentOne(deps, grants, id);
}

/**
 * The audit entry of an update: a change of the manifest lock is recorded as `lock` or `unlock`,
 * any other field as `update`, each with the changed fields before and after.
 */
async function recordExhibitUpdate(
  deps: AppDeps,
  audit: AuditContext,
  change: { record: ExhibitRecord; update: ExhibitUpdate },
): Promise<void> {
  const { record, update } = change;
  const changed = fieldChanges<ExhibitUpdate>(record, update);
  if (!changed) return;
  const { before, after, fields } = changed;
  const action = fields.length === 1 && fields[0] === 'manifestLocked' ? (update.manifestLocked ? 'lock' : 'unlock') : 'update';
  await recordExhibitChange(deps, audit, { exhibitId: record.id, resource: 'exhibit', resourceId: record.id, action, before, after });
}

/** Deletes an unlocked exhibit (`by`: who, an email or an API key's label); a locked one answers 409 LockedExhibits naming it. */
export async function deleteExhibit(deps: AppDeps, grants: Grants, target: { id: string; by: string; audit: AuditContext }): Promise<void> {
  const { id, by } = target;
  const { record, role } = await visibleExhibit(deps, grants, id);
  assertRight(role, 'manageDevices');
  if (record.manifestLocked) {
    throw new AppError('LockedExhibits', LOCKED_EXHIBIT_MESSAGE, {
      details: { lockedExhibits: [{ id: record.id, name: record.name }] },
    });
  }
  const followers = await listFollowers(deps.db, [record.id]);
  // Queued before the rows go: the mails hold their whole text and leave once they are gone.
  await notifyExhibitDeleted(deps, { exhibitId: id, by });
  const before = { name: record.name, siteId: record.siteId, mqttPath: record.mqttPath };
  await deps.audit.record(target.audit, {
    organizationId: record.organizationId,
    siteId: record.siteId,
    exhibitId: id,
    resource: 'exhibit',
    resourceId: id,
    action: 'delete',
    before,
  });
  await deleteExhibitRow(deps.db, id);
  deps.hub.publish('exhibit', id, { type: 'exhibit.deleted', exhibitId: id });
  const touched = [...followers.map((f) => f.id), ...(record.leaderId ? [record.leaderId] : [])];
  for (const exhibitId of touched) deps.hub.publish('exhibit', exhibitId, { type: 'exhibit.updated', exhibitId });
  // Its rows are gone: its stored files go too, and its former followers hold their own files now.
  await removeStoredObjects(deps, { exhibitIds: [id], hardwareIds: [] });
  for (const follower of followers) pushExhibitFiles(deps, follower.id);
}
