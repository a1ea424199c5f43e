import type { Site } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

export type UpdateSiteInput = { siteId: string; organizationId: string; name: string };

/** PUT /org-management/site/{id}: renames the site (site managers). */
export const updateSite = ({ siteId, name }: UpdateSiteInput) => api.put<Site>(`/org-management/site/${siteId}`, { name });

/** Renames a site. Its name shows on the site, organization, exhibit and hardware lists. */
export function useUpdateSite() {
  return useRefreshingMutation(updateSite, ({ siteId, organizationId }) => [
    queryKeys.site(siteId),
    queryKeys.organizationSites(organizationId),
    queryKeys.organization(organizationId),
    queryKeys.sites,
    queryKeys.exhibits,
    queryKeys.hardwareLists,
  ]);
}
