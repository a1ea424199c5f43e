import { normalizeEmail } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { hashPassword, verifyPasswordOrDummy } from '../../lib/crypto.js';
import { resetPasswordMail } from '../../mail/templates.js';
import { consumeLink, createAccountLink, findLiveLink } from './account-links.service.js';
import { createSession, deleteUserSessions } from './sessions.service.js';
import { clearThrottle, throttleFailures, throttleKey, throttleRequest, throttleRules } from './throttle.service.js';
import { createPendingSignIn, hasTwoFactor } from './two-factor.service.js';
import { assertPassword, createUser } from './users.service.js';
import { findUserByEmail, findUserById, updateUser } from './users.repository.js';

/** The answers of a failed sign-in: each one counts against the account and the client address. */
const SIGN_IN_FAILURES = ['IncorrectUsernameOrPassword', 'UserAccountNotCreated', 'UserAccountCreatedWithGAuth'] as const;
/** The answers to a wrong or spent account link: each one counts against the client address. */
const LINK_FAILURES = ['ResetPasswordURLExpired', 'CreateAccountURLExpired'] as const;

/** What a correct password leads to: a session, or (two-factor sign-in on) the pending sign-in the code completes. */
export type SignInStep = { session: { token: string; expiresAt: Date } } | { pendingSignIn: string };

/**
 * Checks email and password; answers a new session token, or for an account with two-factor
 * sign-in the pending sign-in the code completes (two-factor.service.ts). Throttled per account
 * and per client address on failures; the account's count is cleared only once a session is
 * made, so a known password never buys fresh guesses at the code. Every path does one argon2
 * verification, so an unknown email takes as long as a wrong password and answers the same. The
 * spec's own answers for an invited user and for a Google-only account do tell that the email is
 * known; they come after the same work and count as failures like any other.
 */
export async function login(deps: AppDeps, input: { email: string; password: string; ip: string }): Promise<SignInStep> {
  const rules = throttleRules(deps.config);
  const account = throttleKey(rules.account, input.email);
  const keys = [throttleKey(rules.address, input.ip), account];
  const step = await throttleFailures(deps, { keys, failureCodes: SIGN_IN_FAILURES }, async (): Promise<SignInStep> => {
    const user = await findUserByEmail(deps.db, normalizeEmail(input.email));
    const passwordMatches = await verifyPasswordOrDummy(user?.passwordHash, input.password);
    if (user && !user.accountCreated) throw new AppError('UserAccountNotCreated');
    if (user && !user.passwordHash && user.oidcSubject) throw new AppError('UserAccountCreatedWithGAuth');
    if (!user?.passwordHash || !passwordMatches) throw new AppError('IncorrectUsernameOrPassword');
    if (await hasTwoFactor(deps, user.id)) return { pendingSignIn: createPendingSignIn(deps, { id: user.id, passwordHash: user.passwordHash }) };
    return { session: await createSession(deps, user.id) };
  });
  if ('session' in step) await clearThrottle(deps, account);
  return step;
}

/** Runs a call that takes an account link under the throttle of the client address: a wrong link counts. */
function throttleLinkUse<T>(deps: AppDeps, ip: string, use: () => Promise<T>): Promise<T> {
  const address = throttleKey(throttleRules(deps.config).address, ip);
  return throttleFailures(deps, { keys: [address], failureCodes: LINK_FAILURES }, use);
}

/** Forgets the failed sign-ins of an account whose owner just proved the mailbox is theirs. */
function clearSignInFailures(deps: AppDeps, email: string): Promise<void> {
  return clearThrottle(deps, throttleKey(throttleRules(deps.config).account, email));
}

/** What a create-account or reset link is, for the page that opens it (throttled per client address). */
export function checkLink(deps: AppDeps, secret: string, ip: string) {
  return throttleLinkUse(deps, ip, () => describeLink(deps, secret));
}

async function describeLink(deps: AppDeps, secret: string) {
  const link = await findLiveLink(deps, secret);
  if (!link) throw new AppError('ResetPasswordURLExpired');
  const user = link.userId ? await findUserById(deps.db, link.userId) : undefined;
  if (link.kind !== 'setup' && !user) throw new AppError('ResetPasswordURLExpired');
  if (link.kind === 'create_account' && user?.accountCreated) throw new AppError('CreateAccountURLExpired');
  return { valid: true as const, kind: link.kind, email: user?.email ?? null };
}

/** Creates the account behind a create-account (or first-admin setup) link (throttled per client address). */
export function createAccountFromLink(
  deps: AppDeps,
  input: { firstName: string; lastName: string; password: string; resetUrlId: string; email?: string },
  ip: string,
) {
  return throttleLinkUse(deps, ip, () => createAccount(deps, input));
}

async function createAccount(
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
  await clearSignInFailures(deps, user.email);
  return { userId: user.id };
}

/**
 * Mails a reset link when the email has an account. Answers the same either way and in the same
 * time (the link and the mail are made after the answer), so the call does not tell who has an
 * account. Throttled per client address and per email asked for, whether it has an account or not.
 */
export async function requestPasswordReset(deps: AppDeps, email: string, ip: string): Promise<void> {
  const rules = throttleRules(deps.config);
  await throttleRequest(deps, [throttleKey(rules.mailFromAddress, ip), throttleKey(rules.mailTo, email)]);
  const user = await findUserByEmail(deps.db, normalizeEmail(email));
  if (!user || !user.accountCreated) {
    deps.logger.info({ email }, 'password reset asked for an email without an account');
    return;
  }
  deps.background.run('sending a reset link', async () => {
    const link = await createAccountLink(deps, 'reset_password', user.id);
    await deps.mailer.send(resetPasswordMail(user.email, link));
  });
}

/**
 * Sets a new password through a reset link, signs the user out everywhere and lifts the wait of
 * failed sign-ins on the account (throttled per client address).
 */
export function changePassword(deps: AppDeps, input: { resetUrlId: string; password: string; ip: string }): Promise<void> {
  const { resetUrlId, password, ip } = input;
  return throttleLinkUse(deps, ip, async () => {
    const link = await findLiveLink(deps, resetUrlId);
    if (!link || link.kind !== 'reset_password' || !link.userId) throw new AppError('ResetPasswordURLExpired');
    assertPassword(password);
    if (!(await consumeLink(deps, link.id))) throw new AppError('ResetPasswordURLExpired');
    const user = await updateUser(deps.db, link.userId, { passwordHash: await hashPassword(password) });
    await deleteUserSessions(deps, link.userId);
    await clearSignInFailures(deps, user.email);
  });
}
