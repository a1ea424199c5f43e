import { useMutation, useQueryClient } from '@tanstack/react-query';
import { updateHardware } from '../../../lib/api/update-hardware';
import { queryKeys } from '../../../lib/query-keys';

/** The hardware to connect to the exhibit and the hardware to disconnect from it. */
export type HardwareConnectionChange = { connect: string[]; disconnect: string[] };

/**
 * The Connect to Hardware dialog's Update: connects the added hardware and disconnects the removed
 * ones, one call each (PUT /hardware-mgmt/hardware/{id}), stopping at the first failure. Whatever
 * happened, the hardware lists and the changed records are read again before the mutation ends.
 */
export function useUpdateHardwareConnections(exhibitId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ connect, disconnect }: HardwareConnectionChange) => {
      for (const hardwareId of connect) await updateHardware({ hardwareId, data: { exhibitId } });
      for (const hardwareId of disconnect) await updateHardware({ hardwareId, data: { exhibitId: null } });
    },
    onError: (e) => console.error('Could not update exhibit id in hardware', e),
    onSettled: async (_data, _error, { connect, disconnect }) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.hardwareLists });
      for (const hardwareId of [...connect, ...disconnect]) void queryClient.invalidateQueries({ queryKey: queryKeys.hardware(hardwareId), exact: true });
    },
  });
}
