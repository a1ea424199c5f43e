import type { TwoFactorRecoveryCodes } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import type { TwoFactorCodeInput } from './complete-two-factor-login';

/** POST /auth/two-factor/enable: confirms the set-up with a code; answers the recovery codes, shown once. */
export const enableTwoFactor = ({ code }: TwoFactorCodeInput) => api.post<TwoFactorRecoveryCodes>('/auth/two-factor/enable', { code });

/** Turns two-factor sign-in on; the state is read again. */
export function useEnableTwoFactor() {
  return useRefreshingMutation(enableTwoFactor, () => [queryKeys.twoFactor]);
}
