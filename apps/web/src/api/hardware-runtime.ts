import { useQuery } from '@tanstack/react-query';
import type { CommandResult, Firmware, FirmwareHistoryEntry, FirmwareList, Hardware, HardwareCommand, Token } from '@plinth/shared';
import { api } from '../lib/api-client';
import { queryKeys } from './query-keys';

/** A value a prop set may carry: text, a number, or the comma-separated LED channels. */
export type PropSetValue = string | number | boolean | number[];

// ---- Hardware tokens (/auth/hardware) ----

export const listHardwareTokens = (hardwareId: string) => api.get<{ tokens: Token[] }>(`/auth/hardware/${hardwareId}`);
/** The answer holds the token value, which is never shown again. */
export const createHardwareToken = (hardwareId: string, name: string) =>
  api.post<Token & { token: string }>('/auth/hardware', { name, hardwareId });
export const deleteHardwareToken = (tokenId: string) => api.delete<{ ok: true }>(`/auth/hardware/delete-token/${tokenId}`);

// ---- Commands and prop sets ----

/** Reboot, identify or get (re-announce every value); answers once the board has carried it out. */
export const runHardwareCommand = (hardwareId: string, command: HardwareCommand) =>
  api.get<CommandResult>(`/hardware-mgmt/hardware/${hardwareId}/${command}`);
/** Sets one prop of one peripheral of the board; the board echoes the new value as a live prop message. */
export const setHardwareProp = (hardwareId: string, peripheralId: string, propName: string, value: PropSetValue) =>
  api.put<CommandResult>(
    `/hardware-mgmt/peripheral/${encodeURIComponent(hardwareId)}/${encodeURIComponent(peripheralId)}/${encodeURIComponent(propName)}`,
    { value },
  );

// ---- Firmware ----

export const listFirmware = (hardwareId: string) => api.get<FirmwareList>('/hardware-mgmt/firmware', { hardwareId });
/** Stores the file (multipart field `file`); the record is created by createFirmware afterwards. */
export const uploadFirmwareFile = (hardwareId: string, siteId: string, file: File, firmwareName?: string) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.post<{ fileName: string; fileSize: string }>('/content/firmware/upload', form, { hardwareId, siteId, firmwareName });
};
export const createFirmware = (body: {
  hardwareId: string;
  isPlinthFirmware: boolean;
  fileName: string;
  name: string;
  fileSize: string;
  version: string;
}) => api.post<Firmware>('/hardware-mgmt/firmware', body);
/** Pushes the firmware to the board, which applies it in the background. */
export const pushFirmware = (firmwareId: string) =>
  api.post<{ correlationId: string; history: FirmwareHistoryEntry }>(`/hardware-mgmt/firmware/${firmwareId}/upload`);
export const deleteFirmware = (firmwareId: string) => api.delete<{ ok: true }>(`/hardware-mgmt/firmware/${firmwareId}`);
export const deleteFirmwareFile = (hardwareId: string, siteId: string, fileName: string) =>
  api.delete<{ ok: true }>('/content/firmware', { hardwareId, siteId, firmware: fileName });

// ---- Hooks ----

export function useHardwareTokens(hardwareId: string | undefined, enabled = true) {
  return useQuery({
    queryKey: queryKeys.hardwareTokens(hardwareId ?? ''),
    queryFn: () => listHardwareTokens(hardwareId!),
    enabled: Boolean(hardwareId) && enabled,
    staleTime: 0,
  });
}

/** Both firmware panels; refetched on entering the tab, since boards change it on their own. */
export function useFirmware(hardwareId: string | undefined) {
  return useQuery({
    queryKey: queryKeys.hardwareFirmware(hardwareId ?? ''),
    queryFn: () => listFirmware(hardwareId!),
    enabled: Boolean(hardwareId),
    staleTime: 0,
  });
}

/** The hardware connected to an exhibit (readable by anyone who may see the exhibit). */
export function useExhibitHardware(exhibitId: string | undefined) {
  return useQuery({
    queryKey: queryKeys.hardwareByExhibit(exhibitId ?? ''),
    queryFn: () => api.get<{ hardware: Hardware[] }>('/hardware-mgmt/hardware/', { exhibitId }),
    enabled: Boolean(exhibitId),
  });
}
