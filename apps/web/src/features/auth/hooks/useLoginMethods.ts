import { useQuery } from '@tanstack/react-query';
import type { LoginMethod } from '@plinth/shared';
import { getLoginMethodsQueryOptions } from '../api/get-login-methods';

export type LoginMethodsState = {
  isPending: boolean;
  showGoogle: boolean;
  /** Email and password: shown when offered, and also when the method list could not be read. */
  showGeneric: boolean;
};

/** Which sign-in methods to offer (spec: generic login stays shown when the fetch fails). */
export function useLoginMethods(): LoginMethodsState {
  const query = useQuery(getLoginMethodsQueryOptions());
  const methods: LoginMethod[] = query.data?.methods ?? [];
  return {
    isPending: query.isPending,
    showGoogle: methods.includes('GOOGLE_AUTH'),
    showGeneric: query.isError || methods.includes('GENERIC'),
  };
}
