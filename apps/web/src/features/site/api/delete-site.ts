import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useDeleteMutation } from '../../../lib/use-delete-mutation';

export type DeleteSiteInput = { siteId: string; organizationId: string };

/** DELETE /org-management/site/{id}: 409 LockedExhibits while one of its exhibits is locked. */
export const deleteSite = ({ siteId }: DeleteSiteInput) => api.delete<{ ok: true }>(`/org-management/site/${siteId}`);

/** Deletes a site with its exhibits and hardware: its organization and the site, exhibit and hardware lists are read again. */
export function useDeleteSite() {
  return useDeleteMutation({
    mutationFn: deleteSite,
    recordKey: ({ siteId }: DeleteSiteInput) => queryKeys.site(siteId),
    listKeys: ({ organizationId }: DeleteSiteInput) => [
      queryKeys.organizationSites(organizationId),
      queryKeys.organization(organizationId),
      queryKeys.sites,
      queryKeys.exhibits,
      queryKeys.hardwareLists,
    ],
  });
}
