import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

/** DELETE /exhibit-management/permission/{grantId}: removes a user from the exhibit. */
export const deleteExhibitUser = (grantId: string) => api.delete<{ ok: true }>(`/exhibit-management/permission/${grantId}`);

/** Removes a user (by grant id); the exhibit's people are read again. */
export function useDeleteExhibitUser(exhibitId: string) {
  return useRefreshingMutation(deleteExhibitUser, () => [queryKeys.exhibitPeople(exhibitId)]);
}
