import { useQuery } from '@tanstack/react-query';
import { checkResetLink } from '../../../api/auth';

/** The query key of one account-link check. */
export const accountLinkKey = (resetUrlId: string) => ['auth', 'account-link', resetUrlId] as const;

/** Checks a reset-password, create-account or setup link; the screens drop the answer once the link is used. */
export function useAccountLink(resetUrlId: string | null) {
  return useQuery({
    queryKey: accountLinkKey(resetUrlId ?? ''),
    queryFn: () => checkResetLink(resetUrlId!),
    enabled: Boolean(resetUrlId),
    retry: false,
    staleTime: 60_000,
  });
}
