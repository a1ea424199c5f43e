import type { UpdateGranular } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

/** PUT /exhibit-management/permission/granular: the changed levels of one user, all saved together. */
export const updateGranularPermissions = (body: UpdateGranular) => api.put<unknown>('/exhibit-management/permission/granular', body);

/** Saves levels; that user's levels are read again. */
export function useUpdateGranularPermissions() {
  return useRefreshingMutation(updateGranularPermissions, ({ exhibitId, userId }) => [queryKeys.exhibitGranular(exhibitId, userId)]);
}
