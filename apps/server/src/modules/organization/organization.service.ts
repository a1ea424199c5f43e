import { can, type Organization, type Right, type SiteSummary } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import type { AuditContext } from '../audit/audit-context.js';
import { removeStoredObjects } from '../content/stored-objects.service.js';
import { AppError } from '../../lib/app-error.js';
import type { Grants } from '../access/grants.js';
import { isUniqueViolation } from '../auth/users.service.js';
import { listSettingRows } from '../settings/settings.repository.js';
import { presentSiteSummary } from '../site/site.presenter.js';
import { listSiteRows, visibleSiteScope } from '../site/site.repository.js';
import { presentOrganization, presentOrganizationSummary } from './organization.presenter.js';
import {
  deleteOrganizationUnlessLocked,
  findOrganizationRow,
  insertOrganization,
  listOrganizationRows,
  updateOrganizationName,
  type OrganizationRow,
} from './organization.repository.js';

/**
 * The organization, when the caller may use `right` on it. Unknown or invisible: 404. Visible
 * only through a site or exhibit grant (no role on it), or a role too low: 403.
 */
export async function requireOrganization(deps: AppDeps, grants: Grants, access: { id: string; right: Right }): Promise<OrganizationRow> {
  const { id, right } = access;
  const row = await findOrganizationRow(deps.db, id);
  if (!row || !grants.isOrganizationVisible(id)) throw new AppError('NotFound');
  if (!can(grants.organizationRole(id), right)) throw new AppError('Forbidden');
  return row;
}

/** The organizations the caller sees, and whether the caller may create organizations. */
export async function listOrganizations(deps: AppDeps, grants: Grants) {
  const rows = await listOrganizationRows(deps.db, grants.visibleOrganizationIds());
  return {
    organizations: rows.map((row) => presentOrganizationSummary(row, grants)),
    canCreate: grants.isPlatformAdmin,
  };
}

/** Creates an organization with its default settings; platform admins only. */
export async function createOrganization(deps: AppDeps, grants: Grants, input: { name: string; audit: AuditContext }): Promise<Organization> {
  const { name } = input;
  if (!grants.isPlatformAdmin) throw new AppError('Forbidden');
  let row: OrganizationRow;
  try {
    row = await insertOrganization(deps.db, name);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('OrganizationNameAlreadyTakenException');
    throw error;
  }
  const after = { name: row.name };
  await deps.audit.record(input.audit, { organizationId: row.id, resource: 'organization', resourceId: row.id, action: 'create', after });
  return loadOrganization(deps, grants, row);
}

/** The organization screen's data: visible sites and settings. */
export async function getOrganization(deps: AppDeps, grants: Grants, id: string): Promise<Organization> {
  const row = await requireOrganization(deps, grants, { id, right: 'view' });
  return loadOrganization(deps, grants, row);
}

/** Renames the organization (organization managers); names stay unique case-insensitively. */
export async function updateOrganization(
  deps: AppDeps,
  grants: Grants,
  change: { id: string; name: string; audit: AuditContext },
): Promise<Organization> {
  const { id, name } = change;
  const previous = await requireOrganization(deps, grants, { id, right: 'administer' });
  let row: OrganizationRow | undefined;
  try {
    row = await updateOrganizationName(deps.db, id, name);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('OrganizationNameAlreadyTakenException');
    throw error;
  }
  if (!row) throw new AppError('NotFound');
  if (previous.name !== row.name) {
    const names = { before: { name: previous.name }, after: { name: row.name } };
    await deps.audit.record(change.audit, { organizationId: id, resource: 'organization', resourceId: id, action: 'update', ...names });
  }
  return loadOrganization(deps, grants, row);
}

/** Deletes the organization with everything in it, unless it holds a locked exhibit. */
export async function deleteOrganization(deps: AppDeps, grants: Grants, target: { id: string; audit: AuditContext }): Promise<void> {
  const { id } = target;
  const previous = await requireOrganization(deps, grants, { id, right: 'administer' });
  const { locked, exhibitIds, hardwareIds } = await deleteOrganizationUnlessLocked(deps.db, id);
  if (locked.length) {
    throw new AppError('LockedExhibits', 'This organization cannot be deleted because it contains locked exhibits.', {
      details: { lockedExhibits: locked },
    });
  }
  // The organization's chain outlives it until the default retention drops it.
  await deps.audit.record(target.audit, { organizationId: id, resource: 'organization', resourceId: id, action: 'delete', before: { name: previous.name } });
  await removeStoredObjects(deps, { exhibitIds, hardwareIds });
}

/** The sites of one organization the caller can see (all of them with a role on the organization). */
export async function listOrganizationSites(deps: AppDeps, grants: Grants, id: string): Promise<{ sites: SiteSummary[] }> {
  const row = await findOrganizationRow(deps.db, id);
  if (!row || !grants.isOrganizationVisible(id)) throw new AppError('NotFound');
  const rows = await listSiteRows(deps.db, visibleSiteScope(grants), id);
  return { sites: rows.map((site) => presentSiteSummary(site, grants)) };
}

async function loadOrganization(deps: AppDeps, grants: Grants, row: OrganizationRow): Promise<Organization> {
  const [sites, settings] = await Promise.all([
    listSiteRows(deps.db, visibleSiteScope(grants), row.id),
    listSettingRows(deps.db, { scope: 'organization', id: row.id }),
  ]);
  return presentOrganization(row, grants, { sites: sites.map((site) => presentSiteSummary(site, grants)), settings });
}
