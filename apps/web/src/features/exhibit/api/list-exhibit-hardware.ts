import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Hardware } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /hardware-mgmt/hardware/?exhibitId=: the hardware connected to an exhibit (readable by anyone who may see the exhibit). */
export const listExhibitHardware = (exhibitId: string) => api.get<{ hardware: Hardware[] }>('/hardware-mgmt/hardware/', { exhibitId });

export const listExhibitHardwareQueryOptions = (exhibitId: string) =>
  queryOptions({ queryKey: queryKeys.hardwareByExhibit(exhibitId), queryFn: () => listExhibitHardware(exhibitId) });

/** The exhibit's hardware tab; live events patch the list in place. */
export function useExhibitHardware(exhibitId: string | undefined) {
  return useQuery({ ...listExhibitHardwareQueryOptions(exhibitId ?? ''), enabled: Boolean(exhibitId) });
}
