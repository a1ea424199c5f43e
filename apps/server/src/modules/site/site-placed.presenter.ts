import type { SitePlaced } from '@plinth/shared';

/** A device's name and where it stands, as exhibits and hardware both show them. */
export function presentSitePlaced(record: SitePlaced): SitePlaced {
  const { id, name, siteId, siteName, organizationId, organizationName } = record;
  return { id, name, siteId, siteName, organizationId, organizationName };
}
