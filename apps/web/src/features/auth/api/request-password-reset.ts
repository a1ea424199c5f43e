import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { normalizeEmail } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { loginInputSchema } from './login';

/** The forgot-password form: an email is required (spec section 5); the server judges the rest. */
export const requestPasswordResetInputSchema = loginInputSchema.pick({ email: true });

export type RequestPasswordResetInput = z.infer<typeof requestPasswordResetInputSchema>;

/** POST /auth/user/reset-password: mails a reset link when the account exists. */
export const requestPasswordReset = ({ email }: RequestPasswordResetInput) =>
  api.post<{ ok: true }>('/auth/user/reset-password', { email: normalizeEmail(email) });

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
