import type { Firmware } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { deleteFirmwareFile } from './delete-firmware-file';

/** DELETE /hardware-mgmt/firmware/{id}: removes the firmware record. */
export const deleteFirmware = (firmwareId: string) => api.delete<{ ok: true }>(`/hardware-mgmt/firmware/${firmwareId}`);

export type DeleteFirmwareInput = {
  firmware: Firmware;
  /** Another record uses the same file: it stays. */
  isFileShared: boolean;
};

/**
 * Delete of a firmware panel: removes the record, then its file unless another record uses it (a
 * failure there is logged only); then the firmware lists are read again.
 */
export function useDeleteFirmware(hardware: { id: string; siteId: string }) {
  return useRefreshingMutation(async ({ firmware, isFileShared }: DeleteFirmwareInput) => {
    await deleteFirmware(firmware.id);
    if (isFileShared) return;
    await deleteFirmwareFile({ hardwareId: hardware.id, siteId: hardware.siteId, fileName: firmware.fileName }).catch((e: unknown) =>
      console.error('Could not delete the firmware file', e),
    );
  }, () => [queryKeys.hardwareFirmware(hardware.id)]);
}
