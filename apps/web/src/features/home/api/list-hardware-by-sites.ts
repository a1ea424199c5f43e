import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Hardware } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /hardware-mgmt/hardware/?siteIds=: the hardware of these sites; live events patch it in place. */
export const listHardwareBySites = (siteIds: string[]) => api.get<{ hardware: Hardware[] }>('/hardware-mgmt/hardware/', { siteIds: siteIds.join(',') });

export const listHardwareBySitesQueryOptions = (siteIds: string[]) =>
  queryOptions({ queryKey: queryKeys.hardwareBySites(siteIds), queryFn: () => listHardwareBySites(siteIds) });

/** The hardware of the sites home shows; read once the sites are known. */
export function useHardwareBySites(siteIds: string[]) {
  return useQuery({ ...listHardwareBySitesQueryOptions(siteIds), enabled: siteIds.length > 0 });
}
