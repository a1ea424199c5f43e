import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Exhibit } from '@plinth/shared';
import { api } from '../api-client';
import { queryKeys } from '../query-keys';

/** GET /exhibit-management/exhibit/by-site-ids/: the exhibits of these sites the caller may see. */
export const listExhibitsBySites = (siteIds: string[]) =>
  api.get<{ exhibits: Exhibit[] }>('/exhibit-management/exhibit/by-site-ids/', { siteId: siteIds });

export const listExhibitsBySitesQueryOptions = (siteIds: string[]) =>
  queryOptions({ queryKey: queryKeys.exhibitsBySites(siteIds), queryFn: () => listExhibitsBySites(siteIds) });

/**
 * The exhibits of some sites: the site's exhibits tab and left navigation, the locked exhibits
 * that block deleting an organization or a site, the exhibits hardware may connect to. Live
 * events patch these lists in place (`lib/realtime-context.tsx`).
 */
export function useExhibitsBySites(siteIds: string[]) {
  return useQuery({ ...listExhibitsBySitesQueryOptions(siteIds), enabled: siteIds.length > 0 });
}
