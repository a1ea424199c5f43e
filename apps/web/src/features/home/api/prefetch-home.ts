import type { QueryClient } from '@tanstack/react-query';
import { getCurrentUserQueryOptions } from '../../../lib/api/get-current-user';
import { listExhibitsQueryOptions } from './list-exhibits';
import { listOrganizationsQueryOptions } from './list-organizations';
import { listSitesQueryOptions } from './list-sites';

/**
 * Starts reading what home lists at the page's start, right behind the session check (GET /auth,
 * asked first so that the server answers it before the longer lists), rather than after it: the
 * lists come back one round trip and a render sooner. Signed out, they answer 401 and the sign-in
 * screen shows as before (signing in reloads the page).
 */
export function prefetchHomeData(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(getCurrentUserQueryOptions());
  void queryClient.prefetchQuery(listOrganizationsQueryOptions());
  void queryClient.prefetchQuery(listSitesQueryOptions());
  void queryClient.prefetchQuery(listExhibitsQueryOptions());
}
