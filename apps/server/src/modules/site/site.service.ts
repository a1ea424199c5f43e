import { can, type Right, type Site, type SiteSummary } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import type { AuditContext } from '../audit/audit-context.js';
import { removeStoredObjects } from '../content/stored-objects.service.js';
import { AppError } from '../../lib/app-error.js';
import type { Grants } from '../access/grants.js';
import { requireOrganization } from '../organization/organization.service.js';
import { presentSetting } from '../settings/settings.presenter.js';
import { listSettingRowsShownOnSite } from '../settings/settings.repository.js';
import { presentSite, presentSiteSummary } from './site.presenter.js';
import {
  deleteSiteUnlessLocked,
  findSiteRow,
  insertSite,
  listSiteRows,
  updateSiteName,
  visibleSiteScope,
  type SiteListRow,
} from './site.repository.js';

/**
 * The site, when the caller sees it (else 404) and, with `right`, may use that right on it
 * (403 when seen only through an exhibit grant or with too low a role).
 */
export async function requireSite(deps: AppDeps, grants: Grants, access: { id: string; right?: Right }): Promise<SiteListRow> {
  const { id, right } = access;
  const row = await findSiteRow(deps.db, id);
  if (!row || !grants.isSiteVisible(row)) throw new AppError('NotFound');
  if (right && !can(grants.siteRole(row), right)) throw new AppError('Forbidden');
  return row;
}

/** Every site the caller can see, sorted by name. */
export async function listSites(deps: AppDeps, grants: Grants): Promise<{ sites: SiteSummary[] }> {
  const rows = await listSiteRows(deps.db, visibleSiteScope(grants));
  return { sites: rows.map((row) => presentSiteSummary(row, grants)) };
}

/** Creates a site with its default settings (organization managers). */
export async function createSite(deps: AppDeps, grants: Grants, input: { organizationId: string; name: string; audit: AuditContext }): Promise<Site> {
  const { organizationId, name } = input;
  await requireOrganization(deps, grants, { id: organizationId, right: 'administer' });
  const site = await insertSite(deps.db, { organizationId, name });
  await deps.audit.record(input.audit, { organizationId, siteId: site.id, resource: 'site', resourceId: site.id, action: 'create', after: { name } });
  return getSite(deps, grants, site.id);
}

/**
 * The site screen's data. A caller who sees the site only through an exhibit grant gets it with
 * role null and no settings (reading settings needs a role on the site).
 */
export async function getSite(deps: AppDeps, grants: Grants, id: string): Promise<Site> {
  const row = await requireSite(deps, grants, { id });
  const settings = can(grants.siteRole(row), 'view') ? (await listSettingRowsShownOnSite(deps.db, row)).map(presentSetting) : [];
  return presentSite(row, grants, settings);
}

/** Renames the site (site managers). */
export async function updateSite(deps: AppDeps, grants: Grants, change: { id: string; name: string; audit: AuditContext }): Promise<Site> {
  const { id, name } = change;
  const previous = await requireSite(deps, grants, { id, right: 'administer' });
  await updateSiteName(deps.db, id, name);
  if (previous.name !== name) {
    const names = { before: { name: previous.name }, after: { name } };
    await deps.audit.record(change.audit, { organizationId: previous.organizationId, siteId: id, resource: 'site', resourceId: id, action: 'update', ...names });
  }
  return getSite(deps, grants, id);
}

/** Deletes the site with its exhibits and hardware, unless it holds a locked exhibit. */
export async function deleteSite(deps: AppDeps, grants: Grants, target: { id: string; audit: AuditContext }): Promise<void> {
  const { id } = target;
  const previous = await requireSite(deps, grants, { id, right: 'administer' });
  const { locked, exhibitIds, hardwareIds } = await deleteSiteUnlessLocked(deps.db, id);
  if (locked.length) {
    throw new AppError('LockedExhibits', 'This site cannot be deleted because it contains locked exhibits.', {
      details: { lockedExhibits: locked },
    });
  }
  const before = { name: previous.name };
  await deps.audit.record(target.audit, { organizationId: previous.organizationId, siteId: id, resource: 'site', resourceId: id, action: 'delete', before });
  await removeStoredObjects(deps, { exhibitIds, hardwareIds });
}
