import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Site } from '@plinth/shared';
import { api } from '../api-client';
import { queryKeys } from '../query-keys';

/** GET /org-management/site/{id}: the site with its settings and the caller's role on it. */
export const getSite = (id: string) => api.get<Site>(`/org-management/site/${id}`);

export const getSiteQueryOptions = (id: string) => queryOptions({ queryKey: queryKeys.site(id), queryFn: () => getSite(id) });

/** Read by the site screen, and by the exhibit screen for the site's name and link. */
export function useSite(id: string | undefined) {
  return useQuery({ ...getSiteQueryOptions(id ?? ''), enabled: Boolean(id) });
}
