import { and, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { sessions, users } from '../../db/schema.js';
import type { AuthUser } from './auth-user.js';
import { mustEnrolTwoFactorSql } from './two-factor.repository.js';

/** Stores a session by the hash of its token (the token itself is never stored). */
export async function insertSession(db: Db, session: { userId: string; tokenHash: string; expiresAt: Date }): Promise<void> {
  await db.insert(sessions).values(session);
}

/** The user of the session with this token hash, while it lasts at `now`. */
export async function findSessionUser(db: Db, tokenHash: string, now: Date): Promise<AuthUser | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      profileImage: users.profileImage,
      isPlatformAdmin: users.isPlatformAdmin,
      mustEnrolTwoFactor: mustEnrolTwoFactorSql(),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)));
  return row;
}

/** Which of these token hashes belong to sessions that last at `now`. */
export async function listLiveSessionHashes(db: Db, tokenHashes: string[], now: Date): Promise<string[]> {
  if (!tokenHashes.length) return [];
  const rows = await db
    .select({ tokenHash: sessions.tokenHash })
    .from(sessions)
    .where(and(inArray(sessions.tokenHash, tokenHashes), gt(sessions.expiresAt, now)));
  return rows.map((row) => row.tokenHash);
}

/** Deletes one session; answers whose it was, or undefined when there was none. */
export async function deleteSessionByHash(db: Db, tokenHash: string): Promise<string | undefined> {
  const [row] = await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash)).returning({ userId: sessions.userId });
  return row?.userId;
}

/** Deletes every session of a user. */
export async function deleteSessionsOfUser(db: Db, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}
