import type { Organization } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

export type UpdateOrganizationInput = { organizationId: string; name: string };

/** PUT /org-management/organization/{id}: renames the organization (admins). */
export const updateOrganization = ({ organizationId, name }: UpdateOrganizationInput) =>
  api.put<Organization>(`/org-management/organization/${organizationId}`, { name });

/** Renames an organization. Its name shows on every list: organizations, sites, exhibits, hardware. */
export function useUpdateOrganization() {
  return useRefreshingMutation(updateOrganization, ({ organizationId }) => [
    queryKeys.organization(organizationId),
    queryKeys.organizations,
    queryKeys.sites,
    queryKeys.exhibits,
    queryKeys.hardwareLists,
  ]);
}
