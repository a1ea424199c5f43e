import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { TwoFactorRecoveryCodes, TwoFactorSetup, TwoFactorStatus } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { hashSecret, verifyPassword } from '../../lib/crypto.js';
import { SecretBoxError } from '../../lib/secret-box.js';
import type { AuthUser } from './auth-user.js';
import { createSession } from './sessions.service.js';
import { throttleFailures, throttleKey, throttleRules } from './throttle.service.js';
import {
  claimTwoFactorStep,
  countRecoveryCodesLeft,
  deleteTwoFactor,
  findTwoFactor,
  findTwoFactorState,
  replaceRecoveryCodes,
  upsertPendingTwoFactor,
  useRecoveryCode,
} from './two-factor.repository.js';
import { findUserById, type UserRow } from './users.repository.js';

/** TOTP parameters every authenticator app reads (RFC 6238 defaults). */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Codes of the step before and after are accepted too (clocks drift). */
const WINDOW = 1;
const RECOVERY_CODE_COUNT = 10;
/** How long the second step may wait after the password (the pending sign-in cookie's life). */
export const PENDING_SIGN_IN_MS = 5 * 60 * 1000;
const PENDING_CONTEXT = 'two-factor-sign-in';
/** Recovery codes are `xxxxx-xxxxx` in this alphabet (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const sealContext = (userId: string) => `two-factor:${userId}`;

/** The user's TOTP secret; a secret sealed under another SECRET_KEY answers 503 (a recovery code still works). */
function openSecret(deps: AppDeps, row: { userId: string; secretSealed: string }): string {
  try {
    return deps.secrets.open(row.secretSealed, sealContext(row.userId));
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error;
    deps.logger.error({ err: error, userId: row.userId }, 'a two-factor secret does not open with this SECRET_KEY');
    throw new AppError('ServiceUnavailable', 'Codes from the app cannot be checked on this server (SECRET_KEY). Use a recovery code.');
  }
}

function totpOf(secretBase32: string, email: string): TOTP {
  return new TOTP({
    issuer: 'Plinth',
    label: email,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/**
 * The step of a valid TOTP code at `now`, or null. `validate` answers the offset of the matching
 * step within the window.
 */
function matchingStep(totp: TOTP, code: string, now: Date): number | null {
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: WINDOW });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

/** Recovery codes are compared without their dash, in lower case. */
const normalizeRecoveryCode = (code: string) => code.replace(/-/g, '').toLowerCase();

function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]!).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

async function issueRecoveryCodes(deps: AppDeps, userId: string): Promise<TwoFactorRecoveryCodes> {
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await replaceRecoveryCodes(deps.db, userId, recoveryCodes.map((code) => hashSecret(normalizeRecoveryCode(code))));
  return { recoveryCodes };
}

/** The signed-in user's two-factor state (GET /auth/two-factor). */
export async function getTwoFactorStatus(deps: AppDeps, user: AuthUser): Promise<TwoFactorStatus> {
  const state = await findTwoFactorState(deps.db, user.id);
  if (!state) throw new AppError('Unauthorized');
  return {
    enabled: state.enabled,
    required: state.required && state.hasPassword,
    available: state.hasPassword,
    recoveryCodesLeft: state.enabled ? await countRecoveryCodesLeft(deps.db, user.id) : 0,
  };
}

async function requirePasswordAccount(deps: AppDeps, userId: string): Promise<UserRow & { passwordHash: string }> {
  const row = await findUserById(deps.db, userId);
  if (!row) throw new AppError('Unauthorized');
  if (!row.passwordHash) {
    throw new AppError('Conflict', 'This account signs in through its identity provider, which handles two-factor sign-in.');
  }
  return { ...row, passwordHash: row.passwordHash };
}

/**
 * Starts an enrolment: a new secret (sealed for storage), its otpauth URI and a QR code of it. It
 * is not on until `enableTwoFactor` gets a code made with it; starting again replaces it.
 */
export async function startTwoFactorSetup(deps: AppDeps, user: AuthUser): Promise<TwoFactorSetup> {
  await requirePasswordAccount(deps, user.id);
  const secret = new Secret({ size: 20 }).base32;
  const saved = await upsertPendingTwoFactor(deps.db, { userId: user.id, secretSealed: deps.secrets.seal(secret, sealContext(user.id)) });
  if (!saved) throw new AppError('Conflict', 'Two-factor sign-in is already on. Turn it off first to set up another app.');
  const otpauthUrl = totpOf(secret, user.email).toString();
  const svg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, otpauthUrl, qrCodeDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** Confirms a pending enrolment with a code from the app; answers the ten recovery codes, shown once. */
export async function enableTwoFactor(deps: AppDeps, user: AuthUser, code: string): Promise<TwoFactorRecoveryCodes> {
  const row = await findTwoFactor(deps.db, user.id);
  if (!row || row.enabledAt) throw new AppError('Conflict', row ? 'Two-factor sign-in is already on.' : 'Start the set-up first.');
  const step = matchingStep(totpOf(openSecret(deps, row), user.email), code, deps.clock.now());
  if (step === null) throw new AppError('InvalidTwoFactorCode');
  if (!(await claimTwoFactorStep(deps.db, { userId: user.id, step, enable: deps.clock.now() }))) throw new AppError('InvalidTwoFactorCode');
  return issueRecoveryCodes(deps, user.id);
}

/**
 * Checks a second factor of a user with two-factor sign-in on: a TOTP code (each accepted once),
 * or an unused recovery code (used up by this). Throws InvalidTwoFactorCode otherwise.
 */
async function verifySecondFactor(deps: AppDeps, user: { id: string; email: string }, code: string): Promise<void> {
  const row = await findTwoFactor(deps.db, user.id);
  if (!row?.enabledAt) throw new AppError('InvalidTwoFactorCode');
  const now = deps.clock.now();
  if (/^\d{6}$/.test(code)) {
    const step = matchingStep(totpOf(openSecret(deps, row), user.email), code, now);
    if (step !== null && (await claimTwoFactorStep(deps.db, { userId: user.id, step }))) return;
    throw new AppError('InvalidTwoFactorCode');
  }
  if (await useRecoveryCode(deps.db, { userId: user.id, codeHash: hashSecret(normalizeRecoveryCode(code)), now })) return;
  throw new AppError('InvalidTwoFactorCode');
}

/** Runs a check of the user's second factor (and password) under the sign-in throttle of their account and the client address. */
function throttleSecondStep<T>(deps: AppDeps, attempt: { email: string; ip: string }, check: () => Promise<T>): Promise<T> {
  const rules = throttleRules(deps.config);
  const account = throttleKey(rules.account, attempt.email);
  return throttleFailures(
    deps,
    {
      keys: [throttleKey(rules.address, attempt.ip), account],
      failureCodes: ['InvalidTwoFactorCode', 'IncorrectUsernameOrPassword'],
      clearOnSuccess: [account],
    },
    check,
  );
}

/** Turns two-factor sign-in off, given the password and a current (or recovery) code; throttled as sign-in. */
export async function disableTwoFactor(deps: AppDeps, user: AuthUser, input: { password: string; code: string; ip: string }): Promise<void> {
  const row = await requirePasswordAccount(deps, user.id);
  await throttleSecondStep(deps, { email: row.email, ip: input.ip }, async () => {
    if (!(await verifyPassword(row.passwordHash, input.password))) throw new AppError('IncorrectUsernameOrPassword');
    await verifySecondFactor(deps, row, input.code);
  });
  await deleteTwoFactor(deps.db, user.id);
}

/** True when the user has two-factor sign-in on (the password step then asks for the code). */
export async function hasTwoFactor(deps: AppDeps, userId: string): Promise<boolean> {
  return Boolean((await findTwoFactor(deps.db, userId))?.enabledAt);
}

/**
 * The pending sign-in after a correct password: `<userId>.<expires ms>.<signature>`, signed with
 * the server's key over the current password hash too, so it dies with a password change. It
 * lives in an HttpOnly cookie for PENDING_SIGN_IN_MS.
 */
export function createPendingSignIn(deps: AppDeps, user: { id: string; passwordHash: string }): string {
  const data = `${user.id}.${deps.clock.now().getTime() + PENDING_SIGN_IN_MS}`;
  return `${data}.${deps.secrets.sign(`${data}\n${user.passwordHash}`, PENDING_CONTEXT)}`;
}

async function openPendingSignIn(deps: AppDeps, token: string | undefined): Promise<UserRow> {
  const expired = new AppError('Unauthorized', 'The sign-in took too long. Please sign in again.');
  const [userId, expires, signature] = (token ?? '').split('.');
  if (!userId || !expires || !signature || Number(expires) < deps.clock.now().getTime()) throw expired;
  const user = /^[0-9a-f-]{36}$/.test(userId) ? await findUserById(deps.db, userId) : undefined;
  if (!user?.passwordHash || !deps.secrets.verify(`${userId}.${expires}\n${user.passwordHash}`, PENDING_CONTEXT, signature)) throw expired;
  return user;
}

/**
 * The second step of a sign-in: the pending sign-in's token and a code (TOTP or recovery). Counts
 * in the same throttle as passwords (account and client address); answers a new session.
 */
export async function completeTwoFactorSignIn(deps: AppDeps, input: { pendingToken: string | undefined; code: string; ip: string }) {
  const user = await openPendingSignIn(deps, input.pendingToken);
  return throttleSecondStep(deps, { email: user.email, ip: input.ip }, async () => {
    await verifySecondFactor(deps, user, input.code);
    return createSession(deps, user.id);
  });
}
