import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { cleanFirmwareFileName, firmwareKindOfFile, Id, type Firmware, type FirmwareHistoryEntry, type FirmwareList } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import type { AuditContext } from '../audit/audit-context.js';
import { recordHardwareChange } from '../audit/audit-record.js';
import { AppError } from '../../lib/app-error.js';
import { recordHardware } from '../logging/records.js';
import type { FirmwareStore } from './firmware-store.js';
import { presentFirmware, presentHistory } from './firmware.presenter.js';
import {
  deleteFirmwareRow,
  failFirmwareHistory,
  findFirmwareHistoryRow,
  findFirmwareRow,
  findHardwareOnline,
  insertFirmware,
  insertFirmwareHistory,
  isFirmwareFileUsed,
  loadFirmwareTab,
  type FirmwareRow,
} from './firmware.repository.js';
import { verifyHardwareToken } from './hardware-tokens.repository.js';

/** Both panels of the firmware tab: available firmware and change history, newest first. */
export async function listFirmware(deps: AppDeps, hardwareId: string): Promise<FirmwareList> {
  const { files, history, unit } = await loadFirmwareTab(deps.db, hardwareId);
  return {
    plinthFirmware: files.filter((f) => f.isPlinthFirmware).map(presentFirmware),
    userFirmware: files.filter((f) => !f.isPlinthFirmware).map(presentFirmware),
    plinthFirmwareHistory: history.filter((h) => h.isPlinthFirmware).map(presentHistory),
    userFirmwareHistory: history.filter((h) => !h.isPlinthFirmware).map(presentHistory),
    currentPlinthVersion: unit?.plinthFw ?? null,
    currentUserVersion: unit?.userFw ?? null,
  };
}

/** A firmware file as uploaded: for which hardware, under which name, its bytes. */
export type FirmwareUpload = { hardwareId: string; fileName: string; content: Readable; audit: AuditContext };

/**
 * Stores an uploaded firmware file (the record is created by the next call). A file that a
 * firmware record already uses is never replaced: that record's checksum would no longer match.
 */
export async function saveFirmwareFile(deps: AppDeps, store: FirmwareStore, upload: FirmwareUpload) {
  const { hardwareId, fileName, content } = upload;
  const clean = cleanFirmwareFileName(fileName);
  if (!clean) {
    content.resume();
    const kind = firmwareKindOfFile(fileName);
    throw new AppError(
      'ValidationError',
      kind ? `fileName: "${fileName}" is not an acceptable file name` : 'Invalid file type: This file needs to be a .gbm0 or .gbm4 file.',
    );
  }
  if (await isFirmwareFileUsed(deps.db, hardwareId, clean)) {
    content.resume();
    throw new AppError('Conflict', `A firmware named "${clean}" already exists for this hardware. Rename the file or delete that firmware first.`);
  }
  const saved = await store.save(hardwareId, clean, content);
  const after = { fileName: clean, size: saved.size };
  await recordHardwareChange(deps, upload.audit, { hardwareId, resource: 'firmwareFile', resourceId: clean, action: 'upload', after });
  return { fileName: clean, fileSize: String(saved.size) };
}

/** Creates the firmware record for a stored file (size and checksum taken from the file itself). */
export async function createFirmware(
  deps: AppDeps,
  store: FirmwareStore,
  input: { hardwareId: string; isPlinthFirmware: boolean; fileName: string; name: string; version: string; audit: AuditContext },
): Promise<Firmware> {
  const file = await store.inspect(input.hardwareId, input.fileName);
  if (!file) throw new AppError('ValidationError', 'fileName: upload the file first');
  const row = await insertFirmware(deps.db, {
    hardwareId: input.hardwareId,
    isPlinthFirmware: input.isPlinthFirmware,
    fileName: input.fileName,
    name: input.name,
    version: input.version,
    fileSize: file.size,
    sha256: file.sha256,
    createdAt: deps.clock.now(),
  });
  const after = { name: row.name, version: row.version, fileName: row.fileName, isPlinthFirmware: row.isPlinthFirmware, sha256: row.sha256 };
  await recordHardwareChange(deps, input.audit, { hardwareId: row.hardwareId, resource: 'firmware', resourceId: row.id, action: 'create', after });
  return presentFirmware(row);
}

export async function getFirmwareRow(deps: AppDeps, firmwareId: string): Promise<FirmwareRow> {
  const row = await findFirmwareRow(deps.db, firmwareId);
  if (!row) throw new AppError('NotFound');
  return row;
}

export async function deleteFirmware(deps: AppDeps, row: FirmwareRow, audit: AuditContext): Promise<void> {
  await deleteFirmwareRow(deps.db, row.id);
  const before = { name: row.name, version: row.version, fileName: row.fileName };
  await recordHardwareChange(deps, audit, { hardwareId: row.hardwareId, resource: 'firmware', resourceId: row.id, action: 'delete', before });
}

/** Removes a stored file once no firmware record uses it. */
export async function deleteFirmwareFile(
  deps: AppDeps,
  store: FirmwareStore,
  file: { hardwareId: string; fileName: string; audit: AuditContext },
): Promise<void> {
  if (await isFirmwareFileUsed(deps.db, file.hardwareId, file.fileName)) throw new AppError('Conflict', 'Delete the firmware record before its file.');
  if (!(await store.remove(file.hardwareId, file.fileName))) throw new AppError('NotFound');
  const before = { fileName: file.fileName };
  await recordHardwareChange(deps, file.audit, { hardwareId: file.hardwareId, resource: 'firmwareFile', resourceId: file.fileName, action: 'delete', before });
}

/**
 * Pushes a firmware to its board: refused while offline. The board downloads it over HTTP with
 * its token, checks the checksum and reports progress; the history entry stays pending until the
 * board says applied or failed.
 */
export async function pushFirmware(
  deps: AppDeps,
  row: FirmwareRow,
  push: { by: string; audit: AuditContext },
): Promise<{ correlationId: string; history: FirmwareHistoryEntry }> {
  const { by } = push;
  const online = await findHardwareOnline(deps.db, row.hardwareId);
  if (online === undefined) throw new AppError('NotFound');
  if (!online) throw new AppError('HardwareOffline');
  const correlationId = randomUUID();
  const entry = await insertFirmwareHistory(deps.db, {
    hardwareId: row.hardwareId,
    firmwareId: row.id,
    isPlinthFirmware: row.isPlinthFirmware,
    name: row.name,
    version: row.version,
    correlationId,
    createdAt: deps.clock.now(),
  });
  const after = { firmwareId: row.id, name: row.name, version: row.version, isPlinthFirmware: row.isPlinthFirmware, correlationId };
  await recordHardwareChange(deps, push.audit, { hardwareId: row.hardwareId, resource: 'firmware', resourceId: row.id, action: 'deploy', after });
  const result = await deps.hardwareGateway.sendCommand(
    row.hardwareId,
    {
      command: 'firmware',
      kind: row.isPlinthFirmware ? 'plinth' : 'user',
      version: row.version,
      url: `${deps.config.publicUrl}/api/v1/hardware-device/firmware/${row.id}`,
      sha256: row.sha256,
      size: row.fileSize,
    },
    { correlationId },
  );
  const pushed = `Firmware "${row.name}" version ${row.version} pushed by ${by}`;
  if (!result.ok) {
    recordHardware(deps.logs, row.hardwareId, { eventType: 'firmware', level: 'warn', message: `${pushed}: failed (${result.error ?? 'refused'})` });
    await failFirmwareHistory(deps.db, entry.id, { error: result.error ?? 'refused', at: deps.clock.now() });
    if (result.error === 'timeout') throw new AppError('ServiceUnavailable', 'The hardware did not answer in time.');
    throw new AppError('Conflict', `The hardware refused the update: ${result.error ?? 'no reason given'}`);
  }
  recordHardware(deps.logs, row.hardwareId, { eventType: 'firmware', message: `${pushed}: accepted by the board` });
  const current = await findFirmwareHistoryRow(deps.db, entry.id);
  return { correlationId, history: presentHistory(current!) };
}

/** A board's own download of a firmware sent to it: Basic auth with hardware id and token. */
export async function authorizeFirmwareDownload(deps: AppDeps, firmwareId: string, authorization: string | undefined): Promise<FirmwareRow> {
  const match = /^Basic\s+(.+)$/i.exec(authorization ?? '');
  if (!match) throw new AppError('Unauthorized');
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const hardwareId = decoded.slice(0, colon);
  const token = decoded.slice(colon + 1);
  if (colon < 0 || !Id.safeParse(hardwareId).success || !(await verifyHardwareToken(deps.db, hardwareId, token))) {
    throw new AppError('Unauthorized');
  }
  const row = await findFirmwareRow(deps.db, firmwareId);
  if (!row || row.hardwareId !== hardwareId) throw new AppError('NotFound');
  return row;
}
