import { normalizeEmail } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { announceAccessChange } from '../../realtime/access-notices.js';
import { deleteUserSessions } from './sessions.service.js';
import { findUserByEmail, findUserById, updateUser, type UserRow } from './users.repository.js';

/** What only a platform admin may do to another user's account. */
function assertPlatformAdmin(actor: { isPlatformAdmin: boolean }): void {
  if (!actor.isPlatformAdmin) throw new AppError('Forbidden');
}

/** Signs a user out of every session (their open sockets close on every node). Platform admins only. */
export async function signOutUser(deps: AppDeps, actor: { isPlatformAdmin: boolean }, userId: string): Promise<void> {
  assertPlatformAdmin(actor);
  if (!(await findUserById(deps.db, userId))) throw new AppError('NotFound');
  await deleteUserSessions(deps, userId);
}

/** The command line's `user sign-out`: by email, no actor (whoever runs it holds the database). */
export async function signOutUserByEmail(deps: AppDeps, email: string): Promise<UserRow> {
  const user = await findUserByEmail(deps.db, normalizeEmail(email));
  if (!user) throw new AppError('NotFound', `No user has the email ${normalizeEmail(email)}.`);
  await deleteUserSessions(deps, user.id);
  return user;
}

/**
 * Makes a user a platform admin or takes it away (the command line's `user platform-admin`). Their
 * open sockets drop, on every node, what they no longer may see.
 */
export async function setPlatformAdmin(deps: AppDeps, email: string, isPlatformAdmin: boolean): Promise<UserRow> {
  const user = await findUserByEmail(deps.db, normalizeEmail(email));
  if (!user) throw new AppError('NotFound', `No user has the email ${normalizeEmail(email)}.`);
  const updated = await updateUser(deps.db, user.id, { isPlatformAdmin });
  announceAccessChange(deps.hub, user.id, 'platform-admin');
  return updated;
}
