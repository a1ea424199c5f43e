import { and, eq } from 'drizzle-orm';
import type { GranularKind, GranularLevel } from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { idIn } from '../../db/id-list.js';
import { exhibitItemPermissions } from '../../db/schema.js';

/** A user's stored level on one manifest item of an exhibit (no row: what the role allows). */
export type StoredLevel = { kind: GranularKind; manifestId: string; level: GranularLevel };

/** Whose levels on which exhibit. */
export type LevelOwner = { exhibitId: string; userId: string };

/** The levels one user has on one exhibit's items, in one query. */
export async function listItemLevels(db: Db, owner: LevelOwner): Promise<StoredLevel[]> {
  return db
    .select({ kind: exhibitItemPermissions.kind, manifestId: exhibitItemPermissions.manifestId, level: exhibitItemPermissions.level })
    .from(exhibitItemPermissions)
    .where(and(eq(exhibitItemPermissions.exhibitId, owner.exhibitId), eq(exhibitItemPermissions.userId, owner.userId)));
}

/** The levels one user has on the items of each of these exhibits (known ids), in one query (a console subscribing to a site's exhibits). */
export async function listItemLevelsOfExhibits(db: Db, owner: { userId: string; exhibitIds: string[] }): Promise<(StoredLevel & { exhibitId: string })[]> {
  if (!owner.exhibitIds.length) return [];
  return db
    .select({ exhibitId: exhibitItemPermissions.exhibitId, kind: exhibitItemPermissions.kind, manifestId: exhibitItemPermissions.manifestId, level: exhibitItemPermissions.level })
    .from(exhibitItemPermissions)
    .where(and(eq(exhibitItemPermissions.userId, owner.userId), idIn(exhibitItemPermissions.exhibitId, owner.exhibitIds)));
}

/**
 * Stores levels (`level` null: back to what the role allows, the row goes) in one transaction:
 * a change of several items is saved whole or not at all.
 */
export async function saveItemLevels(db: Db, owner: LevelOwner, levels: { kind: GranularKind; manifestId: string; level: GranularLevel | null }[]): Promise<void> {
  const { exhibitId, userId } = owner;
  await db.transaction(async (tx) => {
    for (const { kind, manifestId, level } of levels) {
      const key = and(
        eq(exhibitItemPermissions.exhibitId, exhibitId),
        eq(exhibitItemPermissions.userId, userId),
        eq(exhibitItemPermissions.kind, kind),
        eq(exhibitItemPermissions.manifestId, manifestId),
      );
      if (level === null) {
        await tx.delete(exhibitItemPermissions).where(key);
        continue;
      }
      await tx
        .insert(exhibitItemPermissions)
        .values({ exhibitId, userId, kind, manifestId, level })
        .onConflictDoUpdate({
          target: [exhibitItemPermissions.exhibitId, exhibitItemPermissions.userId, exhibitItemPermissions.kind, exhibitItemPermissions.manifestId],
          set: { level, updatedAt: new Date() },
        });
    }
  });
}

/** Forgets every level a user has on an exhibit (they were removed from it). */
export async function deleteItemLevels(db: Db, owner: LevelOwner): Promise<void> {
  await db
    .delete(exhibitItemPermissions)
    .where(and(eq(exhibitItemPermissions.exhibitId, owner.exhibitId), eq(exhibitItemPermissions.userId, owner.userId)));
}
