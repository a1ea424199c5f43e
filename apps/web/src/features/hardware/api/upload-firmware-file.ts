import { api } from '../../../lib/api-client';

export type UploadFirmwareFileInput = { hardwareId: string; siteId: string; file: File };

/** POST /content/firmware/upload: stores the file (multipart field `file`); its record is created afterwards (`createFirmware`). */
export const uploadFirmwareFile = ({ hardwareId, siteId, file }: UploadFirmwareFileInput) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.post<{ fileName: string; fileSize: string }>('/content/firmware/upload', form, { hardwareId, siteId });
};
