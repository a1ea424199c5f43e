import { and, asc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { hardwareTokens } from '../../db/schema.js';
import { hashSecret } from '../../lib/crypto.js';

export type HardwareTokenRow = typeof hardwareTokens.$inferSelect;

/** Stores a new token by its hash. */
export async function insertHardwareToken(db: Db, token: { hardwareId: string; name: string; tokenHash: string; createdAt: Date }): Promise<HardwareTokenRow> {
  const [row] = await db.insert(hardwareTokens).values(token).returning();
  return row!;
}

/** The hardware's tokens, oldest first. */
export async function listHardwareTokenRows(db: Db, hardwareId: string): Promise<HardwareTokenRow[]> {
  return db.select().from(hardwareTokens).where(eq(hardwareTokens.hardwareId, hardwareId)).orderBy(asc(hardwareTokens.createdAt));
}

/** A token by id, whichever hardware it belongs to. */
export async function findHardwareTokenRow(db: Db, tokenId: string): Promise<HardwareTokenRow | undefined> {
  const [row] = await db.select().from(hardwareTokens).where(eq(hardwareTokens.id, tokenId));
  return row;
}

/** Deletes a token (the broker refuses it from then on). */
export async function deleteHardwareTokenRow(db: Db, tokenId: string): Promise<void> {
  await db.delete(hardwareTokens).where(eq(hardwareTokens.id, tokenId));
}

/** Whether the hardware has a token created after this one (with Mosquitto, the newest is the broker password). */
export async function hasNewerHardwareToken(db: Db, token: { hardwareId: string; createdAt: Date }): Promise<boolean> {
  const newer = await db
    .select({ id: hardwareTokens.id })
    .from(hardwareTokens)
    .where(and(eq(hardwareTokens.hardwareId, token.hardwareId), gt(hardwareTokens.createdAt, token.createdAt)))
    .limit(1);
  return newer.length > 0;
}

/** The token a board presented, if it is one of the hardware's live tokens. */
export async function verifyHardwareToken(db: Db, hardwareId: string, token: string): Promise<{ tokenId: string } | null> {
  const [row] = await db
    .select({ tokenId: hardwareTokens.id })
    .from(hardwareTokens)
    .where(and(eq(hardwareTokens.hardwareId, hardwareId), eq(hardwareTokens.tokenHash, hashSecret(token))));
  return row ?? null;
}
