import { and, asc, eq, gt } from 'drizzle-orm';
import type { Token } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { hardwareTokens } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { hashSecret, newSecret } from '../../lib/crypto.js';

const present = (row: { id: string; name: string; createdAt: Date }): Token => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
});

/** Creates a hardware token: its value is answered once, only its SHA-256 is kept. */
export async function createHardwareToken(deps: AppDeps, hardwareId: string, name: string): Promise<Token & { token: string }> {
  const token = newSecret();
  const [row] = await deps.db
    .insert(hardwareTokens)
    .values({ hardwareId, name, tokenHash: hashSecret(token), createdAt: deps.clock.now() })
    .returning();
  await deps.hardwareGateway.tokenCreated(hardwareId, token);
  return { ...present(row!), token };
}

export async function listHardwareTokens(deps: AppDeps, hardwareId: string): Promise<Token[]> {
  const rows = await deps.db
    .select()
    .from(hardwareTokens)
    .where(eq(hardwareTokens.hardwareId, hardwareId))
    .orderBy(asc(hardwareTokens.createdAt));
  return rows.map(present);
}

export async function findHardwareToken(deps: AppDeps, tokenId: string) {
  const [row] = await deps.db.select().from(hardwareTokens).where(eq(hardwareTokens.id, tokenId));
  if (!row) throw new AppError('NotFound');
  return row;
}

/** Deletes a token; a board connected with it is dropped and refused at its next connect. */
export async function deleteHardwareToken(deps: AppDeps, token: { id: string; hardwareId: string; createdAt: Date }): Promise<void> {
  await deps.db.delete(hardwareTokens).where(eq(hardwareTokens.id, token.id));
  const newer = await deps.db
    .select({ id: hardwareTokens.id })
    .from(hardwareTokens)
    .where(and(eq(hardwareTokens.hardwareId, token.hardwareId), gt(hardwareTokens.createdAt, token.createdAt)))
    .limit(1);
  await deps.hardwareGateway.tokenRevoked(token.hardwareId, token.id, newer.length === 0);
}
