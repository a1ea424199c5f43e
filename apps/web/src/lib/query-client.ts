import { QueryClient } from '@tanstack/react-query';
import { LIST_STALE_TIME_MS } from '@plinth/shared';
import { ApiError } from './api-client';

/** Lists are cached for 5 minutes unless a call forces a refetch (spec section 9). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: LIST_STALE_TIME_MS,
        refetchOnWindowFocus: false,
        retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      },
    },
  });
}
