import { and, eq, gt, inArray } from 'drizzle-orm';
import { SESSION_TTL_MS } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { sessions, users } from '../../db/schema.js';
import { hashSecret, newSecret } from '../../lib/crypto.js';
import type { AuthUser } from '../../lib/request-user.js';
import { announceAccessChange } from '../../realtime/access-notices.js';

/** Starts a session; returns the token for the cookie (only its hash is stored). */
export async function createSession(deps: AppDeps, userId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = newSecret();
  const expiresAt = new Date(deps.clock.now().getTime() + SESSION_TTL_MS);
  await deps.db.insert(sessions).values({ userId, tokenHash: hashSecret(token), expiresAt });
  return { token, expiresAt };
}

/** The user of a live session token, or null. */
export async function resolveSession(deps: AppDeps, token: string): Promise<AuthUser | null> {
  return resolveSessionHash(deps, hashSecret(token));
}

/** The user of a live session, by the token's hash (what open sockets keep), or null. */
export async function resolveSessionHash(deps: AppDeps, tokenHash: string): Promise<AuthUser | null> {
  const [row] = await deps.db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      profileImage: users.profileImage,
      isPlatformAdmin: users.isPlatformAdmin,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, deps.clock.now())));
  return row ?? null;
}

/** Which of these token hashes still belong to live sessions (one query for many sockets). */
export async function findLiveSessionHashes(deps: AppDeps, tokenHashes: string[]): Promise<Set<string>> {
  if (!tokenHashes.length) return new Set();
  const rows = await deps.db
    .select({ tokenHash: sessions.tokenHash })
    .from(sessions)
    .where(and(inArray(sessions.tokenHash, tokenHashes), gt(sessions.expiresAt, deps.clock.now())));
  return new Set(rows.map((row) => row.tokenHash));
}

/** Ends one session (logout); the sockets opened with it close on every node. */
export async function deleteSession(deps: AppDeps, tokenHash: string): Promise<void> {
  const [row] = await deps.db.delete(sessions).where(eq(sessions.tokenHash, tokenHash)).returning({ userId: sessions.userId });
  if (row) announceAccessChange(deps.hub, row.userId, 'session');
}

/** Signs a user out everywhere (after a password change, or by an admin); their sockets close. */
export async function deleteUserSessions(deps: AppDeps, userId: string): Promise<void> {
  await deps.db.delete(sessions).where(eq(sessions.userId, userId));
  announceAccessChange(deps.hub, userId, 'session');
}
