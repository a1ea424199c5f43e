import { useQuery } from '@tanstack/react-query';
import type { LoginMethod } from '@plinth/shared';
import { getLoginMethods } from '../../../api/auth';
import { queryKeys } from '../../../api/query-keys';

export type LoginMethodsState = {
  isPending: boolean;
  showGoogle: boolean;
  /** Email and password: shown when offered, and also when the method list could not be read. */
  showGeneric: boolean;
};

/** Which sign-in methods to offer (spec: generic login stays shown when the fetch fails). */
export function useLoginMethods(): LoginMethodsState {
  const query = useQuery({ queryKey: queryKeys.loginMethods, queryFn: getLoginMethods, retry: false });
  const methods: LoginMethod[] = query.data?.methods ?? [];
  return {
    isPending: query.isPending,
    showGoogle: methods.includes('GOOGLE_AUTH'),
    showGeneric: query.isError || methods.includes('GENERIC'),
  };
}
