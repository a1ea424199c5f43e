import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrganizationSummary } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /org-management/organization: the organizations the caller sees, and whether they may create one. */
export const listOrganizations = () => api.get<{ organizations: OrganizationSummary[]; canCreate: boolean }>('/org-management/organization');

export const listOrganizationsQueryOptions = () => queryOptions({ queryKey: queryKeys.organizations, queryFn: listOrganizations });

export function useOrganizations() {
  return useQuery(listOrganizationsQueryOptions());
}
