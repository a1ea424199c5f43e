import type { LowerRole, Permission } from '@plinth/shared';
import { api } from '../api-client';
import { queryKeys } from '../query-keys';
import { useRefreshingMutation } from '../use-refreshing-mutation';
import type { PermissionOwner } from './list-permissions';

export type UpdatePermissionInput = { permissionId: string; role: LowerRole };

/** PUT /org-management/permission/{scope}/{id}: changes a user's role. */
export const updatePermission = (owner: PermissionOwner, { permissionId, role }: UpdatePermissionInput) =>
  api.put<Permission>(`/org-management/permission/${owner.scope}/${permissionId}`, { role });

/** Changes a role; the list of users is read again. */
export function useUpdatePermission(owner: PermissionOwner) {
  return useRefreshingMutation((input: UpdatePermissionInput) => updatePermission(owner, input), () => [queryKeys.permissions(owner.scope, owner.id)]);
}
