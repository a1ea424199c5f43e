import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Organization } from '@plinth/shared';
import { api } from '../api-client';
import { queryKeys } from '../query-keys';

/** GET /org-management/organization/{id}: the organization with its sites, settings and the caller's flags. */
export const getOrganization = (id: string) => api.get<Organization>(`/org-management/organization/${id}`);

export const getOrganizationQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.organization(id), queryFn: () => getOrganization(id) });

/** Read by the organization screen, and by the site and exhibit screens for names, links and settings. */
export function useOrganization(id: string | undefined) {
  return useQuery({ ...getOrganizationQueryOptions(id ?? ''), enabled: Boolean(id) });
}
