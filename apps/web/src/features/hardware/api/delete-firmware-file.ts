import { api } from '../../../lib/api-client';

export type DeleteFirmwareFileInput = { hardwareId: string; siteId: string; fileName: string };

/** DELETE /content/firmware: removes a stored firmware file. */
export const deleteFirmwareFile = ({ hardwareId, siteId, fileName }: DeleteFirmwareFileInput) =>
  api.delete<{ ok: true }>('/content/firmware', { hardwareId, siteId, firmware: fileName });
