import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SiteSummary } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /org-management/site: every site the caller sees, across organizations. */
export const listSites = () => api.get<{ sites: SiteSummary[] }>('/org-management/site');

export const listSitesQueryOptions = () => queryOptions({ queryKey: queryKeys.sites, queryFn: listSites });

export function useSites() {
  return useQuery(listSitesQueryOptions());
}
