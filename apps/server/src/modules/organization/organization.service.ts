import { can, settingKind, type Organization, type Right, type Setting, type SiteSummary } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import type { Grants } from '../access/grants.js';
import { isUniqueViolation } from '../auth/users.service.js';
import { sealContentManagerConfig } from '../content-manager/content-manager-config.service.js';
import { presentOrganizationSetting } from '../settings/settings.presenter.js';
import { validateSettingValue } from '../settings/settings.service.js';
import { presentSiteSummary } from '../site/site.presenter.js';
import { listSiteRows, visibleSiteScope } from '../site/site.repository.js';
import { presentOrganization, presentOrganizationSummary } from './organization.presenter.js';
import {
  deleteOrganizationUnlessLocked,
  findOrganizationRow,
  findOrganizationSettingRow,
  insertOrganization,
  listOrganizationRows,
  listOrganizationSettingRows,
  updateOrganizationName,
  updateOrganizationSettingValue,
  type OrganizationRow,
} from './organization.repository.js';

/**
 * The organization, when the caller may use `right` on it. Unknown or invisible: 404. Visible
 * only through a site or exhibit grant (no role on it), or a role too low: 403.
 */
export async function requireOrganization(
  deps: AppDeps,
  grants: Grants,
  id: string,
  right: Right,
): Promise<OrganizationRow> {
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
export async function createOrganization(deps: AppDeps, grants: Grants, name: string): Promise<Organization> {
  if (!grants.isPlatformAdmin) throw new AppError('Forbidden');
  let row: OrganizationRow;
  try {
    row = await insertOrganization(deps.db, name);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('OrganizationNameAlreadyTakenException');
    throw error;
  }
  return loadOrganization(deps, grants, row);
}

/** The organization screen's data: visible sites and settings. */
export async function getOrganization(deps: AppDeps, grants: Grants, id: string): Promise<Organization> {
  const row = await requireOrganization(deps, grants, id, 'view');
  return loadOrganization(deps, grants, row);
}

/** Renames the organization (organization managers); names stay unique case-insensitively. */
export async function updateOrganization(deps: AppDeps, grants: Grants, id: string, name: string): Promise<Organization> {
  await requireOrganization(deps, grants, id, 'administer');
  let row: OrganizationRow | undefined;
  try {
    row = await updateOrganizationName(deps.db, id, name);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('OrganizationNameAlreadyTakenException');
    throw error;
  }
  if (!row) throw new AppError('NotFound');
  return loadOrganization(deps, grants, row);
}

/** Deletes the organization with everything in it, unless it holds a locked exhibit. */
export async function deleteOrganization(deps: AppDeps, grants: Grants, id: string): Promise<void> {
  await requireOrganization(deps, grants, id, 'administer');
  const locked = await deleteOrganizationUnlessLocked(deps.db, id);
  if (locked.length) {
    throw new AppError('LockedExhibits', 'This organization cannot be deleted because it contains locked exhibits.', {
      lockedExhibits: locked,
    });
  }
}

/** Saves one organization setting (organization managers), checked against its kind; passwords are sealed. */
export async function updateOrganizationSetting(
  deps: AppDeps,
  grants: Grants,
  id: string,
  idString: string,
  value: string,
): Promise<Setting> {
  await requireOrganization(deps, grants, id, 'administer');
  const setting = await findOrganizationSettingRow(deps.db, id, idString);
  if (!setting) throw new AppError('NotFound', 'There is no such organization setting.');
  const kind = settingKind(idString);
  const checked = validateSettingValue(kind, value, deps.config.REPORT_URL_PREFIX);
  const stored = kind === 'contentManager' ? sealContentManagerConfig(deps.secrets, id, checked, setting.value) : checked;
  const row = await updateOrganizationSettingValue(deps.db, setting.id, stored);
  return presentOrganizationSetting(row);
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
    listOrganizationSettingRows(deps.db, row.id),
  ]);
  return presentOrganization(
    row,
    grants,
    sites.map((site) => presentSiteSummary(site, grants)),
    settings,
  );
}
