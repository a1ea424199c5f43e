import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FirmwareList } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /hardware-mgmt/firmware?hardwareId=: both firmware lists with their histories and the current versions. */
export const listFirmware = (hardwareId: string) => api.get<FirmwareList>('/hardware-mgmt/firmware', { hardwareId });

/** Refetched on entering the tab, since boards change it on their own. */
export const listFirmwareQueryOptions = (hardwareId: string) =>
  queryOptions({ queryKey: queryKeys.hardwareFirmware(hardwareId), queryFn: () => listFirmware(hardwareId), staleTime: 0 });

/** Both firmware panels. */
export function useFirmware(hardwareId: string | undefined) {
  return useQuery({ ...listFirmwareQueryOptions(hardwareId ?? ''), enabled: Boolean(hardwareId) });
}
