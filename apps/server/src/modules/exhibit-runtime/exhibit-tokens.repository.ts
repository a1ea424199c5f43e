import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { exhibits, exhibitTokens } from '../../db/schema.js';

/** An exhibit token as listed (its hash never leaves the repository but for signing). */
export type ExhibitTokenRow = { id: string; exhibitId: string; name: string; createdAt: Date };

const listed = { id: exhibitTokens.id, exhibitId: exhibitTokens.exhibitId, name: exhibitTokens.name, createdAt: exhibitTokens.createdAt };

/** Stores a new token by its hash; answers what the creator is shown (besides the value). */
export async function insertExhibitToken(
  db: Db,
  token: { exhibitId: string; name: string; tokenHash: string },
): Promise<{ id: string; name: string; createdAt: Date }> {
  const [row] = await db
    .insert(exhibitTokens)
    .values(token)
    .returning({ id: exhibitTokens.id, name: exhibitTokens.name, createdAt: exhibitTokens.createdAt });
  return row!;
}

/** The exhibit's tokens, oldest first. */
export async function listExhibitTokenRows(db: Db, exhibitId: string): Promise<ExhibitTokenRow[]> {
  return db.select(listed).from(exhibitTokens).where(eq(exhibitTokens.exhibitId, exhibitId)).orderBy(asc(exhibitTokens.createdAt));
}

/** A token by id, whichever exhibit it belongs to. */
export async function findExhibitTokenRow(db: Db, tokenId: string): Promise<ExhibitTokenRow | undefined> {
  const [row] = await db.select(listed).from(exhibitTokens).where(eq(exhibitTokens.id, tokenId));
  return row;
}

/** Deletes a token; answers its exhibit, or nothing when it was already gone. */
export async function deleteExhibitTokenRow(db: Db, tokenId: string): Promise<{ exhibitId: string } | undefined> {
  const [row] = await db.delete(exhibitTokens).where(eq(exhibitTokens.id, tokenId)).returning({ exhibitId: exhibitTokens.exhibitId });
  return row;
}

/** The token of an existing exhibit whose value hashes to `tokenHash`. */
export async function findTokenByHash(db: Db, exhibitId: string, tokenHash: string): Promise<{ id: string; tokenHash: string } | undefined> {
  const [row] = await db
    .select({ id: exhibitTokens.id, tokenHash: exhibitTokens.tokenHash })
    .from(exhibitTokens)
    .innerJoin(exhibits, eq(exhibits.id, exhibitTokens.exhibitId))
    .where(and(eq(exhibitTokens.tokenHash, tokenHash), eq(exhibitTokens.exhibitId, exhibitId)));
  return row;
}

/** The stored hash of one of the exhibit's tokens (the key its credentials are signed with). */
export async function findTokenHash(db: Db, exhibitId: string, tokenId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ tokenHash: exhibitTokens.tokenHash })
    .from(exhibitTokens)
    .where(and(eq(exhibitTokens.id, tokenId), eq(exhibitTokens.exhibitId, exhibitId)));
  return row?.tokenHash;
}
