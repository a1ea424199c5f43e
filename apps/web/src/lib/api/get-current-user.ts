import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '@plinth/shared';
import { api } from '../api-client';
import { queryKeys } from '../query-keys';

/** GET /auth: the signed-in user; a 401 means signed out. */
export const getCurrentUser = () => api.get<CurrentUser>('/auth');

/** Read once per page load: the session gate waits for it, and sign-in and sign-out reload the page. */
export const getCurrentUserQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.me, queryFn: getCurrentUser, retry: false, staleTime: Infinity });

/** The signed-in user; an error (401) means signed out. */
export function useCurrentUser() {
  return useQuery(getCurrentUserQueryOptions());
}
