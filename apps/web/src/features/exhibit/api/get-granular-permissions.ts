import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GranularPermissions } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type GranularInput = { exhibitId: string; userId: string };

/** GET /exhibit-management/permission/granular?exhibitId&userId: one user's level on every status, setting, setting list and control. */
export const getGranularPermissions = ({ exhibitId, userId }: GranularInput) =>
  api.get<{ exhibitUser: GranularPermissions }>('/exhibit-management/permission/granular', { exhibitId, userId }).then((r) => r.exhibitUser);

export const getGranularPermissionsQueryOptions = (input: GranularInput) =>
  queryOptions({
    queryKey: queryKeys.exhibitGranular(input.exhibitId, input.userId),
    queryFn: () => getGranularPermissions(input),
  });

/** The levels an expanded user row edits. */
export function useGranularPermissions(input: GranularInput) {
  return useQuery(getGranularPermissionsQueryOptions(input));
}
