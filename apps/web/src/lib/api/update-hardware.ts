import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Hardware } from '@plinth/shared';
import { api } from '../api-client';
import { queryKeys } from '../query-keys';

/** The fields of a hardware unit the console changes: its name, its exhibit (null disconnects), debug mode. */
export type UpdateHardwareData = { name?: string; exhibitId?: string | null; controlDebug?: boolean };

export type UpdateHardwareInput = { hardwareId: string; data: UpdateHardwareData };

/** PUT /hardware-mgmt/hardware/{id}: answers the updated hardware. */
export const updateHardware = ({ hardwareId, data }: UpdateHardwareInput) => api.put<Hardware>(`/hardware-mgmt/hardware/${hardwareId}`, data);

/**
 * Renames a hardware unit, connects it to an exhibit (or disconnects it) or switches debug mode.
 * The answer replaces the cached record, and the mutation ends once the hardware lists are read again.
 */
export function useUpdateHardware() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateHardware,
    onSuccess: (hardware, { hardwareId }) => {
      queryClient.setQueryData(queryKeys.hardware(hardwareId), hardware);
      return queryClient.invalidateQueries({ queryKey: queryKeys.hardwareLists });
    },
  });
}
