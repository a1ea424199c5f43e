import type { ExhibitMember } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import type { UpdatePermissionInput } from '../../../lib/api/update-permission';
import { queryKeys } from '../../../lib/query-keys';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';

/** PUT /exhibit-management/permission/{grantId}: changes an exhibit user's role. */
export const updateExhibitUserRole = ({ permissionId, role }: UpdatePermissionInput) =>
  api.put<ExhibitMember>(`/exhibit-management/permission/${permissionId}`, {
    role,
  });

/**
 * Changes a role (the users list's role change, by grant id); the exhibit's people are read again,
 * granular levels too since the role caps them.
 */
export function useUpdateExhibitUserRole(exhibitId: string) {
  return useRefreshingMutation(updateExhibitUserRole, () => [queryKeys.exhibitPeople(exhibitId)]);
}
