import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SiteSummary } from '@plinth/shared';
import { api } from '../api-client';
import { queryKeys } from '../query-keys';

/** GET /org-management/organization/{id}/sites: the organization's sites the caller may see. */
export const listOrganizationSites = (id: string) => api.get<{ sites: SiteSummary[] }>(`/org-management/organization/${id}/sites`);

export const listOrganizationSitesQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.organizationSites(id), queryFn: () => listOrganizationSites(id) });

/** The organization's sites tab, and the site screen's left navigation. */
export function useOrganizationSites(id: string | undefined) {
  return useQuery({ ...listOrganizationSitesQueryOptions(id ?? ''), enabled: Boolean(id) });
}
