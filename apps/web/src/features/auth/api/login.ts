import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { LoginBody, normalizeEmail, type LoginResponse } from '@plinth/shared';
import { api } from '../../../lib/api-client';

/**
 * The login form: both fields are required (spec section 5). The email's form is the server's to
 * judge; a wrong one answers the same message as a wrong password.
 */
export const loginInputSchema = z.object({ email: z.string().trim().min(1), password: LoginBody.shape.password });

export type LoginInput = z.infer<typeof loginInputSchema>;

/**
 * POST /auth/user/login: sets the session cookie and answers the user, or for an account with
 * two-factor sign-in answers `{ twoFactorRequired: true }` (the code comes next).
 */
export const login = ({ email, password }: LoginInput) => api.post<LoginResponse>('/auth/user/login', { email: normalizeEmail(email), password });

/** Signs in; the page reloads on success, so there is no cache to update. */
export function useLogin() {
  return useMutation({ mutationFn: login });
}
