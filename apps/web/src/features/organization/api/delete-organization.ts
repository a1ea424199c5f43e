import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useDeleteMutation } from '../../../lib/use-delete-mutation';

/** DELETE /org-management/organization/{id}: 409 LockedExhibits while one of its exhibits is locked. */
export const deleteOrganization = (organizationId: string) => api.delete<{ ok: true }>(`/org-management/organization/${organizationId}`);

/** Deletes an organization with its sites, exhibits and hardware: every list is read again. */
export function useDeleteOrganization() {
  return useDeleteMutation({
    mutationFn: deleteOrganization,
    recordKey: queryKeys.organization,
    listKeys: () => [queryKeys.organizations, queryKeys.sites, queryKeys.exhibits, queryKeys.hardwareLists],
  });
}
