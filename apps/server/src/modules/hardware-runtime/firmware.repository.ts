import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { firmware, firmwareHistory, hardware } from '../../db/schema.js';

export type FirmwareRow = typeof firmware.$inferSelect;
export type FirmwareHistoryRow = typeof firmwareHistory.$inferSelect;

/** A hardware unit's firmware files, the changes pushed to it (newest first) and its running versions. */
export async function loadFirmwareTab(
  db: Db,
  hardwareId: string,
): Promise<{ files: FirmwareRow[]; history: FirmwareHistoryRow[]; unit: { plinthFw: string | null; userFw: string | null } | undefined }> {
  const [files, history, [unit]] = await Promise.all([
    db.select().from(firmware).where(eq(firmware.hardwareId, hardwareId)).orderBy(desc(firmware.createdAt)),
    db.select().from(firmwareHistory).where(eq(firmwareHistory.hardwareId, hardwareId)).orderBy(desc(firmwareHistory.createdAt)),
    db.select({ plinthFw: hardware.plinthFw, userFw: hardware.userFw }).from(hardware).where(eq(hardware.id, hardwareId)),
  ]);
  return { files, history, unit };
}

/** Whether a firmware record of the hardware uses the stored file. */
export async function isFirmwareFileUsed(db: Db, hardwareId: string, fileName: string): Promise<boolean> {
  const used = await db
    .select({ id: firmware.id })
    .from(firmware)
    .where(and(eq(firmware.hardwareId, hardwareId), eq(firmware.fileName, fileName)))
    .limit(1);
  return used.length > 0;
}

/** Stores a firmware record for a stored file. */
export async function insertFirmware(db: Db, row: typeof firmware.$inferInsert): Promise<FirmwareRow> {
  const [inserted] = await db.insert(firmware).values(row).returning();
  return inserted!;
}

/** A firmware record by id, whichever hardware it belongs to. */
export async function findFirmwareRow(db: Db, firmwareId: string): Promise<FirmwareRow | undefined> {
  const [row] = await db.select().from(firmware).where(eq(firmware.id, firmwareId));
  return row;
}

/** Deletes a firmware record (its history entries keep their version and name). */
export async function deleteFirmwareRow(db: Db, firmwareId: string): Promise<void> {
  await db.delete(firmware).where(eq(firmware.id, firmwareId));
}

/** Whether the board is online, or undefined when the hardware does not exist. */
export async function findHardwareOnline(db: Db, hardwareId: string): Promise<boolean | undefined> {
  const [unit] = await db.select({ online: hardware.online }).from(hardware).where(eq(hardware.id, hardwareId));
  return unit?.online;
}

/** A pending history entry for a firmware pushed to its board. */
export async function insertFirmwareHistory(db: Db, row: typeof firmwareHistory.$inferInsert): Promise<FirmwareHistoryRow> {
  const [entry] = await db.insert(firmwareHistory).values(row).returning();
  return entry!;
}

/** The board refused the update or did not answer: the entry fails with that error. */
export async function failFirmwareHistory(db: Db, entryId: string, failure: { error: string; at: Date }): Promise<void> {
  await db.update(firmwareHistory).set({ status: 'failed', error: failure.error, finishedAt: failure.at }).where(eq(firmwareHistory.id, entryId));
}

/** A history entry as stored now (after the board's answer). */
export async function findFirmwareHistoryRow(db: Db, entryId: string): Promise<FirmwareHistoryRow | undefined> {
  const [row] = await db.select().from(firmwareHistory).where(eq(firmwareHistory.id, entryId));
  return row;
}
