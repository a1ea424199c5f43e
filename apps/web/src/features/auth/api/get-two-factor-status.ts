import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TwoFactorStatus } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /auth/two-factor: whether two-factor sign-in is on, required, and how many recovery codes are left. */
export const getTwoFactorStatus = () => api.get<TwoFactorStatus>('/auth/two-factor');

export const getTwoFactorStatusQueryOptions = () => queryOptions({ queryKey: queryKeys.twoFactor, queryFn: getTwoFactorStatus });

/** The signed-in user's two-factor state. */
export function useTwoFactorStatus() {
  return useQuery(getTwoFactorStatusQueryOptions());
}
