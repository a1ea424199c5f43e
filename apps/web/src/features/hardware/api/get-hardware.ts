import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Hardware } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /hardware-mgmt/hardware/{id}: the record with its peripherals, firmware versions and the caller's role. */
export const getHardware = (id: string) => api.get<Hardware>(`/hardware-mgmt/hardware/${id}`);

export const getHardwareQueryOptions = (id: string) => queryOptions({ queryKey: queryKeys.hardware(id), queryFn: () => getHardware(id) });

/** The hardware screen's record; live status, prop and debug events patch it in place. */
export function useHardware(id: string | undefined) {
  return useQuery({ ...getHardwareQueryOptions(id ?? ''), enabled: Boolean(id) });
}
