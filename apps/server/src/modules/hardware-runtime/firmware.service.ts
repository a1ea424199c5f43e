import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, desc, eq } from 'drizzle-orm';
import {
  cleanFirmwareFileName,
  firmwareKindOfFile,
  type Firmware,
  type FirmwareHistoryEntry,
  type FirmwareList,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { firmware, firmwareHistory, hardware } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { FirmwareStore } from './firmware-store.js';
import { verifyHardwareToken } from './hardware-state.repository.js';

type FirmwareRow = typeof firmware.$inferSelect;
type HistoryRow = typeof firmwareHistory.$inferSelect;

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

export const presentHistory = (row: HistoryRow): FirmwareHistoryEntry => ({
  id: row.id,
  FirmwareId: row.firmwareId,
  createdAt: row.createdAt.toISOString(),
  version: row.version,
  name: row.name,
  status: row.status,
  error: row.error,
});

/** Both panels of the firmware tab: available firmware and change history, newest first. */
export async function listFirmware(deps: AppDeps, hardwareId: string): Promise<FirmwareList> {
  const [files, history, [unit]] = await Promise.all([
    deps.db.select().from(firmware).where(eq(firmware.hardwareId, hardwareId)).orderBy(desc(firmware.createdAt)),
    deps.db.select().from(firmwareHistory).where(eq(firmwareHistory.hardwareId, hardwareId)).orderBy(desc(firmwareHistory.createdAt)),
    deps.db.select({ plinthFw: hardware.plinthFw, userFw: hardware.userFw }).from(hardware).where(eq(hardware.id, hardwareId)),
  ]);
  return {
    plinthFirmware: files.filter((f) => f.isPlinthFirmware).map(presentFirmware),
    userFirmware: files.filter((f) => !f.isPlinthFirmware).map(presentFirmware),
    plinthFirmwareHistory: history.filter((h) => h.isPlinthFirmware).map(presentHistory),
    userFirmwareHistory: history.filter((h) => !h.isPlinthFirmware).map(presentHistory),
    currentPlinthVersion: unit?.plinthFw ?? null,
    currentUserVersion: unit?.userFw ?? null,
  };
}

/**
 * Stores an uploaded firmware file (the record is created by the next call). A file that a
 * firmware record already uses is never replaced: that record's checksum would no longer match.
 */
export async function saveFirmwareFile(deps: AppDeps, store: FirmwareStore, hardwareId: string, fileName: string, content: Readable) {
  const clean = cleanFirmwareFileName(fileName);
  if (!clean) {
    content.resume();
    const kind = firmwareKindOfFile(fileName);
    throw new AppError(
      'ValidationError',
      kind ? `fileName: "${fileName}" is not an acceptable file name` : 'Invalid file type: This file needs to be a .gbm0 or .gbm4 file.',
    );
  }
  const used = await deps.db
    .select({ id: firmware.id })
    .from(firmware)
    .where(and(eq(firmware.hardwareId, hardwareId), eq(firmware.fileName, clean)))
    .limit(1);
  if (used.length) {
    content.resume();
    throw new AppError('Conflict', `A firmware named "${clean}" already exists for this hardware. Rename the file or delete that firmware first.`);
  }
  const saved = await store.save(hardwareId, clean, content);
  return { fileName: clean, fileSize: String(saved.size) };
}

/** Creates the firmware record for a stored file (size and checksum taken from the file itself). */
export async function createFirmware(
  deps: AppDeps,
  store: FirmwareStore,
  input: { hardwareId: string; isPlinthFirmware: boolean; fileName: string; name: string; version: string },
): Promise<Firmware> {
  const file = await store.inspect(input.hardwareId, input.fileName);
  if (!file) throw new AppError('ValidationError', 'fileName: upload the file first');
  const [row] = await deps.db
    .insert(firmware)
    .values({
      hardwareId: input.hardwareId,
      isPlinthFirmware: input.isPlinthFirmware,
      fileName: input.fileName,
      name: input.name,
      version: input.version,
      fileSize: file.size,
      sha256: file.sha256,
      createdAt: deps.clock.now(),
    })
    .returning();
  return presentFirmware(row!);
}

export async function getFirmwareRow(deps: AppDeps, firmwareId: string): Promise<FirmwareRow> {
  const [row] = await deps.db.select().from(firmware).where(eq(firmware.id, firmwareId));
  if (!row) throw new AppError('NotFound');
  return row;
}

export async function deleteFirmware(deps: AppDeps, firmwareId: string): Promise<void> {
  await deps.db.delete(firmware).where(eq(firmware.id, firmwareId));
}

/** Removes a stored file once no firmware record uses it. */
export async function deleteFirmwareFile(deps: AppDeps, store: FirmwareStore, hardwareId: string, fileName: string): Promise<void> {
  const used = await deps.db
    .select({ id: firmware.id })
    .from(firmware)
    .where(and(eq(firmware.hardwareId, hardwareId), eq(firmware.fileName, fileName)))
    .limit(1);
  if (used.length) throw new AppError('Conflict', 'Delete the firmware record before its file.');
  if (!(await store.remove(hardwareId, fileName))) throw new AppError('NotFound');
}

/**
 * Pushes a firmware to its board: refused while offline. The board downloads it over HTTP with
 * its token, checks the checksum and reports progress; the history entry stays pending until the
 * board says applied or failed.
 */
export async function pushFirmware(deps: AppDeps, row: FirmwareRow): Promise<{ correlationId: string; history: FirmwareHistoryEntry }> {
  const [unit] = await deps.db.select({ online: hardware.online }).from(hardware).where(eq(hardware.id, row.hardwareId));
  if (!unit) throw new AppError('NotFound');
  if (!unit.online) throw new AppError('HardwareOffline');
  const correlationId = randomUUID();
  const [entry] = await deps.db
    .insert(firmwareHistory)
    .values({
      hardwareId: row.hardwareId,
      firmwareId: row.id,
      isPlinthFirmware: row.isPlinthFirmware,
      name: row.name,
      version: row.version,
      correlationId,
      createdAt: deps.clock.now(),
    })
    .returning();
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
  if (!result.ok) {
    await deps.db
      .update(firmwareHistory)
      .set({ status: 'failed', error: result.error ?? 'refused', finishedAt: deps.clock.now() })
      .where(eq(firmwareHistory.id, entry!.id));
    if (result.error === 'timeout') throw new AppError('ServiceUnavailable', 'The hardware did not answer in time.');
    throw new AppError('Conflict', `The hardware refused the update: ${result.error ?? 'no reason given'}`);
  }
  const [current] = await deps.db.select().from(firmwareHistory).where(eq(firmwareHistory.id, entry!.id));
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
  if (colon < 0 || !/^[0-9a-f-]{36}$/i.test(hardwareId) || !(await verifyHardwareToken(deps.db, hardwareId, token))) {
    throw new AppError('Unauthorized');
  }
  const [row] = await deps.db.select().from(firmware).where(eq(firmware.id, firmwareId));
  if (!row || row.hardwareId !== hardwareId) throw new AppError('NotFound');
  return row;
}
