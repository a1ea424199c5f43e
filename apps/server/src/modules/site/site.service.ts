import {
  can,
  settingKind,
  type Right,
  type Setting,
  type Site,
  type SiteSummary,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import type { Grants } from '../access/grants.js';
import { findOrganizationSettingRow, listOrganizationSettingRows } from '../organization/organization.repository.js';
import { requireOrganization } from '../organization/organization.service.js';
import { presentOrganizationSetting, presentSiteSetting } from '../settings/settings.presenter.js';
import { validateSettingValue } from '../settings/settings.service.js';
import { presentSite, presentSiteSummary } from './site.presenter.js';
import {
  deleteSiteUnlessLocked,
  findSiteRow,
  findSiteSettingRow,
  insertSite,
  listSiteRows,
  listSiteSettingRows,
  updateSiteName,
  updateSiteSettingValue,
  visibleSiteScope,
  type SiteListRow,
} from './site.repository.js';

/** Shown when a site tries to change a setting it inherits from its organization. */
export const INHERITED_SETTING_MESSAGE = 'This field may only be modified at the organization level.';

/**
 * The site, when the caller sees it (else 404) and, with `right`, may use that right on it
 * (403 when seen only through an exhibit grant or with too low a role).
 */
export async function requireSite(deps: AppDeps, grants: Grants, id: string, right?: Right): Promise<SiteListRow> {
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
export async function createSite(deps: AppDeps, grants: Grants, organizationId: string, name: string): Promise<Site> {
  await requireOrganization(deps, grants, organizationId, 'administer');
  const id = await insertSite(deps.db, organizationId, name);
  return getSite(deps, grants, id);
}

/**
 * The site screen's data. A caller who sees the site only through an exhibit grant gets it with
 * role null and no settings (reading settings needs a role on the site).
 */
export async function getSite(deps: AppDeps, grants: Grants, id: string): Promise<Site> {
  const row = await requireSite(deps, grants, id);
  const settings = can(grants.siteRole(row), 'view') ? await loadSiteSettings(deps, row) : [];
  return presentSite(row, grants, settings);
}

/** Renames the site (site managers). */
export async function updateSite(deps: AppDeps, grants: Grants, id: string, name: string): Promise<Site> {
  await requireSite(deps, grants, id, 'administer');
  await updateSiteName(deps.db, id, name);
  return getSite(deps, grants, id);
}

/** Deletes the site with its exhibits and hardware, unless it holds a locked exhibit. */
export async function deleteSite(deps: AppDeps, grants: Grants, id: string): Promise<void> {
  await requireSite(deps, grants, id, 'administer');
  const locked = await deleteSiteUnlessLocked(deps.db, id);
  if (locked.length) {
    throw new AppError('LockedExhibits', 'This site cannot be deleted because it contains locked exhibits.', {
      lockedExhibits: locked,
    });
  }
}

/** The settings a site shows: its organization's inherited ones (read-only here), then its own. */
export async function getSiteSettings(deps: AppDeps, grants: Grants, siteId: string): Promise<{ siteSettings: Setting[] }> {
  const row = await requireSite(deps, grants, siteId, 'view');
  return { siteSettings: await loadSiteSettings(deps, row) };
}

/** Saves one of the site's own settings (DEVELOPER and up); inherited ones are refused. */
export async function updateSiteSetting(
  deps: AppDeps,
  grants: Grants,
  siteId: string,
  idString: string,
  value: string,
): Promise<Setting> {
  const site = await requireSite(deps, grants, siteId, 'editSettings');
  const setting = await findSiteSettingRow(deps.db, siteId, idString);
  if (!setting) {
    const organizationSetting = await findOrganizationSettingRow(deps.db, site.organizationId, idString);
    if (organizationSetting?.inherited) throw new AppError('Forbidden', INHERITED_SETTING_MESSAGE);
    throw new AppError('NotFound', 'There is no such site setting.');
  }
  const stored = validateSettingValue(settingKind(idString), value, deps.config.REPORT_URL_PREFIX);
  return presentSiteSetting(await updateSiteSettingValue(deps.db, setting.id, stored));
}

async function loadSiteSettings(deps: AppDeps, site: SiteListRow): Promise<Setting[]> {
  const [inherited, own] = await Promise.all([
    listOrganizationSettingRows(deps.db, site.organizationId, { inheritedOnly: true }),
    listSiteSettingRows(deps.db, site.id),
  ]);
  return [
    ...inherited.map(presentOrganizationSetting),
    ...own.map(presentSiteSetting),
  ];
}
