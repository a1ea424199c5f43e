import { and, eq, gt } from 'drizzle-orm';
import { SESSION_TTL_MS } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { sessions, users } from '../../db/schema.js';
import { hashSecret, newSecret } from '../../lib/crypto.js';
import type { AuthUser } from '../../lib/request-user.js';

/** Starts a session; returns the token for the cookie (only its hash is stored). */
export async function createSession(deps: AppDeps, userId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = newSecret();
  const expiresAt = new Date(deps.clock.now().getTime() + SESSION_TTL_MS);
  await deps.db.insert(sessions).values({ userId, tokenHash: hashSecret(token), expiresAt });
  return { token, expiresAt };
}

/** The user of a live session token, or null. */
export async function resolveSession(deps: AppDeps, token: string): Promise<AuthUser | null> {
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
    .where(and(eq(sessions.tokenHash, hashSecret(token)), gt(sessions.expiresAt, deps.clock.now())));
  return row ?? null;
}

export async function deleteSession(deps: AppDeps, tokenHash: string): Promise<void> {
  await deps.db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

/** Signs a user out everywhere (after a password change). */
export async function deleteUserSessions(deps: AppDeps, userId: string): Promise<void> {
  await deps.db.delete(sessions).where(eq(sessions.userId, userId));
}
