import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** What a valid link is for, and the account's email (null for the first-admin setup link). */
export type AccountLink = { valid: true; kind: 'reset_password' | 'create_account' | 'setup'; email: string | null };

/** POST /auth/user/check-reset-password: answers 4xx when the link is unknown, used or expired. */
export const checkResetLink = (resetUrlId: string) => api.post<AccountLink>('/auth/user/check-reset-password', { resetUrlId });

/** Not retried (an expired link stays expired); the answer is dropped once the link is used. */
export const checkResetLinkQueryOptions = (resetUrlId: string) =>
  queryOptions({ queryKey: queryKeys.accountLink(resetUrlId), queryFn: () => checkResetLink(resetUrlId), retry: false, staleTime: 60_000 });

/** Checks a reset-password, create-account or setup link. */
export function useAccountLink(resetUrlId: string | null) {
  return useQuery({ ...checkResetLinkQueryOptions(resetUrlId ?? ''), enabled: Boolean(resetUrlId) });
}
