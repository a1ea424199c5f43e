import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useDeleteMutation } from '../../../lib/use-delete-mutation';

/** DELETE /hardware-mgmt/hardware/{id}. */
export const deleteHardware = (hardwareId: string) => api.delete<{ ok: true }>(`/hardware-mgmt/hardware/${hardwareId}`);

/** Deletes a hardware unit (its tokens and firmware go from the cache with it): the hardware lists are read again. */
export function useDeleteHardware() {
  return useDeleteMutation({ mutationFn: deleteHardware, recordKey: queryKeys.hardware, listKeys: () => [queryKeys.hardwareLists] });
}
