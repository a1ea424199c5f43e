import type { Firmware, FirmwareHistoryEntry } from '@plinth/shared';
import type { FirmwareHistoryRow, FirmwareRow } from './firmware.repository.js';

export const presentFirmware = (row: FirmwareRow): Firmware => ({
  id: row.id,
  name: row.name,
  version: row.version,
  fileName: row.fileName,
  fileSize: String(row.fileSize),
  createdAt: row.createdAt.toISOString(),
  hardwareId: row.hardwareId,
  isPlinthFirmware: row.isPlinthFirmware,
});

export const presentHistory = (row: FirmwareHistoryRow): FirmwareHistoryEntry => ({
  id: row.id,
  FirmwareId: row.firmwareId,
  createdAt: row.createdAt.toISOString(),
  version: row.version,
  name: row.name,
  status: row.status,
  error: row.error,
});
