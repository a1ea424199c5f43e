import { z } from 'zod';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

/** Turning it off takes the password and a current (or recovery) code. */
export const disableTwoFactorInputSchema = z.object({ password: z.string().min(1), code: z.string().trim().min(6) });

export type DisableTwoFactorInput = z.infer<typeof disableTwoFactorInputSchema>;

/** POST /auth/two-factor/disable. */
export const disableTwoFactor = (input: DisableTwoFactorInput) => api.post<{ ok: true }>('/auth/two-factor/disable', input);

/** Turns two-factor sign-in off; the state is read again. */
export function useDisableTwoFactor() {
  return useRefreshingMutation(disableTwoFactor, () => [queryKeys.twoFactor]);
}
