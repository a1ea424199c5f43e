import { normalizeEmail, passwordError, type CurrentUser } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { hashPassword } from '../../lib/crypto.js';
import { invitationMail } from '../../mail/templates.js';
import { createAccountLink } from './account-links.service.js';
import { throttleKey, throttleRequest, throttleRules } from './throttle.service.js';
import { findUserByEmail, insertUser, updateUser, type UserRow } from './users.repository.js';

export type NewUser = {
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
  isPlatformAdmin?: boolean;
};

/** Throws the password rule's own error code when the password breaks a rule. */
export function assertPassword(password: string): void {
  const code = passwordError(password);
  if (code) throw new AppError(code);
}

/**
 * Creates a user who can sign in with a password (the CLI and the setup link). An invited user
 * without an account gets the account; an existing account answers UserWithEmailExists.
 */
export async function createUser(deps: AppDeps, input: NewUser): Promise<UserRow> {
  const email = normalizeEmail(input.email);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new AppError('InvalidEmail');
  assertPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const existing = await findUserByEmail(deps.db, email);
  const values = {
    firstName: input.firstName?.trim() ?? '',
    lastName: input.lastName?.trim() ?? '',
    passwordHash,
    accountCreated: true,
    isPlatformAdmin: input.isPlatformAdmin ?? false,
  };
  if (existing) {
    if (existing.accountCreated) throw new AppError('UserWithEmailExists');
    return updateUser(deps.db, existing.id, {
      ...values,
      isPlatformAdmin: existing.isPlatformAdmin || values.isPlatformAdmin,
    });
  }
  try {
    return await insertUser(deps.db, { email, ...values });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('UserWithEmailExists');
    throw error;
  }
}

/** Someone to find or invite, and where to. */
export type Invitee = {
  email: string;
  /** What the invitation gives access to, as the mail names it. */
  scopeName: string;
  inviter: { id: string; firstName: string; lastName: string; email: string };
  /** The inviter's client address. */
  ip: string;
};

/**
 * The user with this email; when nobody has it yet an invited user is created and mailed a
 * create-account link. `invited` tells whether a mail was sent. Invitation mails are throttled per
 * inviter, per client address (`ip`) and per invited address: past the budget nothing is created
 * and the call answers TooManyRequests.
 */
export async function findOrInviteUser(deps: AppDeps, invitee: Invitee): Promise<{ user: UserRow; invited: boolean }> {
  const { scopeName, inviter, ip } = invitee;
  const email = normalizeEmail(invitee.email);
  let user = await findUserByEmail(deps.db, email);
  if (user?.accountCreated) return { user, invited: false };
  const rules = throttleRules(deps.config);
  await throttleRequest(deps, [
    throttleKey(rules.mailFromAddress, ip),
    throttleKey(rules.mailFromUser, inviter.id),
    throttleKey(rules.mailTo, email),
  ]);
  if (!user) {
    try {
      user = await insertUser(deps.db, { email, accountCreated: false });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      user = (await findUserByEmail(deps.db, email))!;
    }
  }
  if (user.accountCreated) return { user, invited: false };
  const link = await createAccountLink(deps, 'create_account', user.id);
  const inviterName = `${inviter.firstName} ${inviter.lastName}`.trim() || inviter.email;
  await deps.mailer.send(invitationMail({ to: email, link, scopeName, inviterName }));
  return { user, invited: true };
}

/** The signed-in user as GET /auth and the sign-in answer show it. */
export function presentCurrentUser(user: {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  profileImage: string | null;
  isPlatformAdmin: boolean;
  mustEnrolTwoFactor?: boolean;
}): CurrentUser {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    profile_image: user.profileImage,
    isPlatformAdmin: user.isPlatformAdmin,
    mustEnrolTwoFactor: user.mustEnrolTwoFactor ?? false,
  };
}

/** PostgreSQL unique_violation (23505), from pg or PGlite. */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if (typeof current === 'object' && 'code' in current && (current as { code: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
