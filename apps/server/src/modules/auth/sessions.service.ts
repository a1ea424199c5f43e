import { SESSION_TTL_MS } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { hashSecret, newSecret } from '../../lib/crypto.js';
import { announceAccessChange } from '../../realtime/access-notices.js';
import type { AuthUser } from './auth-user.js';
import {
  deleteSessionByHash,
  deleteSessionsOfUser,
  findSessionUser,
  insertSession,
  listLiveSessionHashes,
} from './sessions.repository.js';

/** Starts a session; returns the token for the cookie (only its hash is stored). */
export async function createSession(deps: AppDeps, userId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = newSecret();
  const expiresAt = new Date(deps.clock.now().getTime() + SESSION_TTL_MS);
  await insertSession(deps.db, { userId, tokenHash: hashSecret(token), expiresAt });
  return { token, expiresAt };
}

/** The user of a live session token, or null. */
export async function resolveSession(deps: AppDeps, token: string): Promise<AuthUser | null> {
  return resolveSessionHash(deps, hashSecret(token));
}

/** The user of a live session, by the token's hash (what open sockets keep), or null. */
export async function resolveSessionHash(deps: AppDeps, tokenHash: string): Promise<AuthUser | null> {
  return (await findSessionUser(deps.db, tokenHash, deps.clock.now())) ?? null;
}

/** Which of these token hashes still belong to live sessions (one query for many sockets). */
export async function findLiveSessionHashes(deps: AppDeps, tokenHashes: string[]): Promise<Set<string>> {
  return new Set(await listLiveSessionHashes(deps.db, tokenHashes, deps.clock.now()));
}

/** Ends one session (logout); the sockets opened with it close on every node. */
export async function deleteSession(deps: AppDeps, tokenHash: string): Promise<void> {
  const userId = await deleteSessionByHash(deps.db, tokenHash);
  if (userId) announceAccessChange(deps.hub, userId, 'session');
}

/** Signs a user out everywhere (after a password change, or by an admin); their sockets close. */
export async function deleteUserSessions(deps: AppDeps, userId: string): Promise<void> {
  await deleteSessionsOfUser(deps.db, userId);
  announceAccessChange(deps.hub, userId, 'session');
}
