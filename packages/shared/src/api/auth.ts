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
