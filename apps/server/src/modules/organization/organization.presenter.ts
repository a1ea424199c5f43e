import { can, toLowerRole, type Organization, type OrganizationSummary, type SiteSummary } from '@plinth/shared';
import type { Grants } from '../access/grants.js';
import { presentSetting } from '../settings/settings.presenter.js';
import type { SettingRow } from '../settings/settings.repository.js';
import type { OrganizationRow } from './organization.repository.js';

/**
 * An organization as lists show it. The role is null when the caller sees it only through a
 * grant on one of its sites or exhibits; organization managers (and platform admins) are
 * isAdmin and may create sites.
 */
export function presentOrganizationSummary(row: OrganizationRow, grants: Grants): OrganizationSummary {
  const role = grants.organizationRole(row.id);
  const isAdmin = can(role, 'administer');
  return {
    id: row.id,
    name: row.name,
    role: role ? toLowerRole(role) : null,
    isAdmin,
    canCreate: isAdmin,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The organization screen's data: the sites the caller sees and the organization's settings. */
export function presentOrganization(
  row: OrganizationRow,
  grants: Grants,
  { sites, settings }: { sites: SiteSummary[]; settings: SettingRow[] },
): Organization {
  const summary = presentOrganizationSummary(row, grants);
  return {
    ...summary,
    sites,
    organizationsettings: settings.map(presentSetting),
  };
}
