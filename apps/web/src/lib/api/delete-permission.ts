import { api } from '../api-client';
import { queryKeys } from '../query-keys';
import { useRefreshingMutation } from '../use-refreshing-mutation';
import type { PermissionOwner } from './list-permissions';

/** DELETE /org-management/permission/{scope}/{id}: removes a user from the organization or site. */
export const deletePermission = (owner: PermissionOwner, permissionId: string) =>
  api.delete<{ ok: true }>(`/org-management/permission/${owner.scope}/${permissionId}`);

/** Removes a user; the list of users is read again. */
export function useDeletePermission(owner: PermissionOwner) {
  return useRefreshingMutation((permissionId: string) => deletePermission(owner, permissionId), () => [queryKeys.permissions(owner.scope, owner.id)]);
}
