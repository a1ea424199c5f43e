import { z } from 'zod';
import { Email, Id, IsoDate } from './common.js';
import { LOGIN_METHODS } from '../constants.js';

export const CurrentUserSchema = z.object({
  id: Id,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  profile_image: z.string().nullable(),
  /** Platform admins may do everything, including creating organizations. */
  isPlatformAdmin: z.boolean(),
  /**
   * An organization the user has a role in requires two-factor sign-in and it is not set up yet:
   * the console shows only the enrolment page, and other calls answer 403 TwoFactorEnrolmentRequired.
   */
  mustEnrolTwoFactor: z.boolean().optional(),
});
export type CurrentUser = z.infer<typeof CurrentUserSchema>;

export const LoginMethodsSchema = z.object({ methods: z.array(z.enum(LOGIN_METHODS)) });

export const LoginBody = z.object({
  email: Email,
  password: z.string({ message: 'is required' }).min(1, { message: 'must not be empty' }),
});

/** The password itself is checked against PASSWORD_RULES by the service, answering their codes. */
export const CreateAccountBody = z.object({
  firstName: z.string().trim().max(100).default(''),
  lastName: z.string().trim().max(100).default(''),
  password: z.string({ message: 'is required' }),
  resetUrlId: z.string({ message: 'is required' }).min(1),
  /** Only for the first-admin setup link, which has no user yet. */
  email: Email.optional(),
});

export const ResetPasswordBody = z.object({ email: Email });
export const CheckResetPasswordBody = z.object({ resetUrlId: z.string({ message: 'is required' }).min(1) });
export const CheckResetPasswordResponse = z.object({
  valid: z.literal(true),
  kind: z.enum(['reset_password', 'create_account', 'setup']),
  /** The account's email; null for the setup link, whose form asks for it. */
  email: z.string().nullable(),
});
export const ChangePasswordBody = z.object({
  password: z.string({ message: 'is required' }),
  resetUrlId: z.string({ message: 'is required' }).min(1),
});

export const TokenSchema = z.object({ id: Id, name: z.string(), createdAt: IsoDate });
export type Token = z.infer<typeof TokenSchema>;

/**
 * GET /auth/google/callback: what the identity provider appends (code, state, or an error); the
 * OpenID Connect client reads it from the URL.
 */
export const OidcCallbackQuery = z.record(z.string(), z.string());

/** A TOTP code (6 digits) or a recovery code (`xxxxx-xxxxx`); spaces are ignored. */
export const TwoFactorCode = z
  .string({ message: 'is required' })
  .transform((code) => code.replace(/\s+/g, '').toLowerCase())
  .pipe(z.string().min(6, { message: 'must be a 6-digit code or a recovery code' }).max(20, { message: 'is too long' }));

/** POST /auth/user/login when the account uses two-factor sign-in: no session yet, the code comes next. */
export const TwoFactorChallengeSchema = z.object({
  /** Always true: ask for the code and send it to POST /auth/user/login/two-factor within 5 minutes. */
  twoFactorRequired: z.literal(true),
});
export type TwoFactorChallenge = z.infer<typeof TwoFactorChallengeSchema>;

/** The answer of POST /auth/user/login: the signed-in user, or the second step to take. */
export const LoginResponseSchema = z.union([CurrentUserSchema, TwoFactorChallengeSchema]);
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

/** POST /auth/user/login/two-factor: the second step, with the pending sign-in's cookie. */
export const TwoFactorLoginBody = z.object({ code: TwoFactorCode });

/** GET /auth/two-factor: the signed-in user's two-factor state. */
export const TwoFactorStatusSchema = z.object({
  /** Two-factor sign-in is on. */
  enabled: z.boolean(),
  /** An organization the user has a role in requires it (and the account signs in with a password). */
  required: z.boolean(),
  /** The account signs in with a password (SSO-only accounts are left to their identity provider). */
  available: z.boolean(),
  /** Recovery codes not used yet. */
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatusSchema>;

/** POST /auth/two-factor/setup: a new secret to add to an authenticator app (not on until confirmed). */
export const TwoFactorSetupSchema = z.object({
  /** The secret in base32, for typing into the app. */
  secret: z.string(),
  /** The otpauth:// URI the QR code holds. */
  otpauthUrl: z.string(),
  /** The QR code as an SVG data URL, for an <img>. */
  qrCodeDataUrl: z.string(),
});
export type TwoFactorSetup = z.infer<typeof TwoFactorSetupSchema>;

/** POST /auth/two-factor/enable: the first code from the app confirms the enrolment. */
export const TwoFactorEnableBody = z.object({ code: TwoFactorCode });

/** The ten recovery codes, shown once (enable, or a new set). */
export const TwoFactorRecoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type TwoFactorRecoveryCodes = z.infer<typeof TwoFactorRecoveryCodesSchema>;

/** POST /auth/two-factor/disable: the password and a current code (or a recovery code). */
export const TwoFactorDisableBody = z.object({
  password: z.string({ message: 'is required' }).min(1, { message: 'must not be empty' }),
  code: TwoFactorCode,
});
