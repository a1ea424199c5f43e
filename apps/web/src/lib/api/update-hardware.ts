import type { Hardware } from '@plinth/shared';
import { api } from '../api-client';
import { queryKeys } from '../query-keys';
import { useRecordUpdate } from './record-update';

/** The fields of a hardware unit the console changes: its name, its exhibit (null disconnects), debug mode. */
export type UpdateHardwareData = { name?: string; exhibitId?: string | null; controlDebug?: boolean };

export type UpdateHardwareInput = { hardwareId: string; data: UpdateHardwareData };

/** PUT /hardware-mgmt/hardware/{id}: answers the updated hardware. */
export const updateHardware = ({ hardwareId, data }: UpdateHardwareInput) => api.put<Hardware>(`/hardware-mgmt/hardware/${hardwareId}`, data);

/**
 * Renames a hardware unit, connects it to an exhibit (or disconnects it) or switches debug mode.
 * The answer replaces the cached record, and the mutation ends once the hardware lists are read again.
 */
export const useUpdateHardware = () =>
  useRecordUpdate({
    mutationFn: updateHardware,
    recordKey: ({ hardwareId }) => queryKeys.hardware(hardwareId),
    listsKey: queryKeys.hardwareLists,
    awaitLists: true,
  });
