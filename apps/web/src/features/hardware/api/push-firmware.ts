import type { FirmwareHistoryEntry } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

/** POST /hardware-mgmt/firmware/{id}/upload: pushes the firmware to the board, which applies it in the background. */
export const pushFirmware = (firmwareId: string) =>
  api.post<{ correlationId: string; history: FirmwareHistoryEntry }>(`/hardware-mgmt/firmware/${firmwareId}/upload`);

/** Update of a firmware panel; then the firmware lists (with the new pending history entry) are read again. */
export function usePushFirmware(hardwareId: string) {
  return useRefreshingMutation(pushFirmware, () => [queryKeys.hardwareFirmware(hardwareId)]);
}
