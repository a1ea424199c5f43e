import { normalizeEmail } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { hashPassword, verifyPassword } from '../../lib/crypto.js';
import { resetPasswordMail } from '../../mail/templates.js';
import { consumeLink, createAccountLink, findLiveLink } from './account-links.service.js';
import { createSession, deleteUserSessions } from './sessions.service.js';
import { assertPassword, createUser } from './users.service.js';
import { findUserByEmail, findUserById, updateUser } from './users.repository.js';

/** Checks email and password; answers a new session token. */
export async function login(deps: AppDeps, email: string, password: string) {
  const user = await findUserByEmail(deps.db, normalizeEmail(email));
  if (!user) throw new AppError('IncorrectUsernameOrPassword');
  if (!user.accountCreated) throw new AppError('UserAccountNotCreated');
  if (!user.passwordHash) {
    if (user.oidcSubject) throw new AppError('UserAccountCreatedWithGAuth');
    throw new AppError('IncorrectUsernameOrPassword');
  }
  if (!(await verifyPassword(user.passwordHash, password))) throw new AppError('IncorrectUsernameOrPassword');
  return createSession(deps, user.id);
}

/** What a create-account or reset link is, for the page that opens it. */
export async function checkLink(deps: AppDeps, secret: string) {
  const link = await findLiveLink(deps, secret);
  if (!link) throw new AppError('ResetPasswordURLExpired');
  const user = link.userId ? await findUserById(deps.db, link.userId) : undefined;
  if (link.kind !== 'setup' && !user) throw new AppError('ResetPasswordURLExpired');
  if (link.kind === 'create_account' && user?.accountCreated) throw new AppError('CreateAccountURLExpired');
  return { valid: true as const, kind: link.kind, email: user?.email ?? null };
}

/** Creates the account behind a create-account (or first-admin setup) link. */
export async function createAccountFromLink(
  deps: AppDeps,
  input: { firstName: string; lastName: string; password: string; resetUrlId: string; email?: string },
) {
  const link = await findLiveLink(deps, input.resetUrlId);
  if (!link || link.kind === 'reset_password') throw new AppError('CreateAccountURLExpired');
  assertPassword(input.password);
  if (link.kind === 'setup') {
    if (!input.email) throw new AppError('InvalidEmail');
    if (!(await consumeLink(deps, link.id))) throw new AppError('CreateAccountURLExpired');
    const user = await createUser(deps, { ...input, email: input.email, isPlatformAdmin: true });
    return { userId: user.id };
  }
  const user = link.userId ? await findUserById(deps.db, link.userId) : undefined;
  if (!user || user.accountCreated) throw new AppError('CreateAccountURLExpired');
  if (!(await consumeLink(deps, link.id))) throw new AppError('CreateAccountURLExpired');
  await updateUser(deps.db, user.id, {
    firstName: input.firstName,
    lastName: input.lastName,
    passwordHash: await hashPassword(input.password),
    accountCreated: true,
  });
  return { userId: user.id };
}

/**
 * Mails a reset link when the email has an account. Answers the same either way, so the call
 * does not tell who has an account.
 */
export async function requestPasswordReset(deps: AppDeps, email: string): Promise<void> {
  const user = await findUserByEmail(deps.db, normalizeEmail(email));
  if (!user || !user.accountCreated) {
    deps.logger.info({ email }, 'password reset asked for an email without an account');
    return;
  }
  const link = await createAccountLink(deps, 'reset_password', user.id);
  await deps.mailer.send(resetPasswordMail(user.email, link));
}

/** Sets a new password through a reset link, and signs the user out everywhere. */
export async function changePassword(deps: AppDeps, secret: string, password: string): Promise<void> {
  const link = await findLiveLink(deps, secret);
  if (!link || link.kind !== 'reset_password' || !link.userId) throw new AppError('ResetPasswordURLExpired');
  assertPassword(password);
  if (!(await consumeLink(deps, link.id))) throw new AppError('ResetPasswordURLExpired');
  await updateUser(deps.db, link.userId, { passwordHash: await hashPassword(password) });
  await deleteUserSessions(deps, link.userId);
}
