import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Hardware } from '@plinth/shared';
import { api } from '../api-client';
import { queryKeys } from '../query-keys';

/** GET /hardware-mgmt/hardware/?siteId=: the site's hardware the caller may see. */
export const listHardwareBySite = (siteId: string) => api.get<{ hardware: Hardware[] }>('/hardware-mgmt/hardware/', { siteId });

export const listHardwareBySiteQueryOptions = (siteId: string) =>
  queryOptions({ queryKey: queryKeys.hardwareBySite(siteId), queryFn: () => listHardwareBySite(siteId) });

/**
 * The site's hardware: its hardware tab, the hardware screen's left navigation, the hardware an
 * exhibit may connect. Live events patch the list in place (`lib/realtime-context.tsx`).
 */
export function useHardwareBySite(siteId: string | undefined) {
  return useQuery({ ...listHardwareBySiteQueryOptions(siteId ?? ''), enabled: Boolean(siteId) });
}
