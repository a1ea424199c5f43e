import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ExhibitUsers } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /exhibit-management/permission/by-exhibit-id/{exhibitId}: the exhibit's users and whether the caller manages them. */
export const listExhibitUsers = (exhibitId: string) => api.get<ExhibitUsers>(`/exhibit-management/permission/by-exhibit-id/${exhibitId}`);

export const listExhibitUsersQueryOptions = (exhibitId: string) =>
  queryOptions({
    queryKey: queryKeys.exhibitUsers(exhibitId),
    queryFn: () => listExhibitUsers(exhibitId),
  });

/** The Users tab's list; `exhibit.usersChanged` reads it again. */
export function useExhibitUsers(exhibitId: string) {
  return useQuery({
    ...listExhibitUsersQueryOptions(exhibitId),
    enabled: Boolean(exhibitId),
  });
}
