import { can, toLowerRole, type Setting, type Site, type SiteSummary } from '@plinth/shared';
import type { Grants } from '../access/grants.js';
import type { SiteListRow } from './site.repository.js';

/** A site as lists show it, with the caller's effective role (null when seen only through an exhibit grant). */
export function presentSiteSummary(row: SiteListRow, grants: Grants): SiteSummary {
  const role = grants.siteRole({ id: row.id, organizationId: row.organizationId });
  return {
    id: row.id,
    name: row.name,
    organizationId: row.organizationId,
    organizationName: row.organizationName,
    role: role ? toLowerRole(role) : null,
    canCreate: can(role, 'administer'),
    createdAt: row.createdAt.toISOString(),
  };
}

/** A site with its settings (the organization's inherited ones first, then its own). */
export function presentSite(row: SiteListRow, grants: Grants, sitesettings: Setting[]): Site {
  return { ...presentSiteSummary(row, grants), sitesettings };
}
