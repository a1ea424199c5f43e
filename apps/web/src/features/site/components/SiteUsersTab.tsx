import { UsersList } from '../../../components/UsersList';
import { useDeletePermission } from '../../../lib/api/delete-permission';
import { usePermissions, type PermissionOwner } from '../../../lib/api/list-permissions';
import { useUpdatePermission } from '../../../lib/api/update-permission';

/** The site's users under 'Site users'; the Add Users button sits in the site header. */
export function SiteUsersTab({ siteId, canManage }: { siteId: string; canManage: boolean }) {
  const owner: PermissionOwner = { scope: 'site', id: siteId };
  const permissions = usePermissions(owner);
  const updateRole = useUpdatePermission(owner);
  const remove = useDeletePermission(owner);
  if (permissions.isError) console.error('User list load failed', permissions.error);
  return (
    <UsersList
      title="Site users"
      permissions={permissions.data?.permissions ?? []}
      canManage={permissions.data?.canManage ?? canManage}
      isLoading={permissions.isPending}
      emptyText="There are no site users."
      scopeLabel="this site"
      updateRole={updateRole}
      remove={remove}
    />
  );
}
