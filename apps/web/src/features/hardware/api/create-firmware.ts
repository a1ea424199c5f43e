import type { Firmware } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { uploadFirmwareFile } from './upload-firmware-file';

export type CreateFirmwareBody = {
  hardwareId: string;
  isPlinthFirmware: boolean;
  fileName: string;
  name: string;
  fileSize: string;
  version: string;
};

/** POST /hardware-mgmt/firmware: the record of a stored firmware file. */
export const createFirmware = (body: CreateFirmwareBody) => api.post<Firmware>('/hardware-mgmt/firmware', body);

/** What the upload dialog sends: the firmware's name, version and file. */
export type FirmwareUpload = { name: string; version: string; file: File };

/** Upload of a firmware panel: stores the file, then creates its record; then the firmware lists are read again. */
export function useCreateFirmware(hardware: { id: string; siteId: string }, isPlinthFirmware: boolean) {
  return useRefreshingMutation(async ({ name, version, file }: FirmwareUpload) => {
    const stored = await uploadFirmwareFile({ hardwareId: hardware.id, siteId: hardware.siteId, file });
    return createFirmware({ hardwareId: hardware.id, isPlinthFirmware, fileName: stored.fileName, name, fileSize: stored.fileSize, version });
  }, () => [queryKeys.hardwareFirmware(hardware.id)]);
}
