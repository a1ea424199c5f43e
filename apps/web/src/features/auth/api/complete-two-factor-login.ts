import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import type { CurrentUser } from '@plinth/shared';
import { api } from '../../../lib/api-client';

/** The second step's form: a 6-digit code from the app, or a recovery code. */
export const twoFactorCodeInputSchema = z.object({ code: z.string().trim().min(6) });

export type TwoFactorCodeInput = z.infer<typeof twoFactorCodeInputSchema>;

/** POST /auth/user/login/two-factor: completes the pending sign-in (its cookie) and sets the session cookie. */
export const completeTwoFactorLogin = ({ code }: TwoFactorCodeInput) => api.post<CurrentUser>('/auth/user/login/two-factor', { code });

/** The second step of a sign-in; the page reloads on success, so there is no cache to update. */
export function useCompleteTwoFactorLogin() {
  return useMutation({ mutationFn: completeTwoFactorLogin });
}
