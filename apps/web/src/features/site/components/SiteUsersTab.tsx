import { QueryGate } from '../../../components/QueryGate';
import { UsersList } from '../../../components/UsersList';
import { useDeletePermission } from '../../../lib/api/delete-permission';
import { usePermissions, type PermissionOwner } from '../../../lib/api/list-permissions';
import { useUpdatePermission } from '../../../lib/api/update-permission';

/** The site's users under 'Site users'; the Add Users button sits in the site header. */
export function SiteUsersTab({ siteId }: { siteId: string }) {
  const owner: PermissionOwner = { scope: 'site', id: siteId };
  const permissions = usePermissions(owner);
  const updateRole = useUpdatePermission(owner);
  const remove = useDeletePermission(owner);
  return (
    <QueryGate query={permissions} loading="Loading users" failed="The users of this site cannot be shown right now.">
      {(data) => (
        <UsersList
          title="Site users"
          permissions={data.permissions}
          canManage={data.canManage}
          emptyText="There are no site users."
          scopeLabel="this site"
          updateRole={updateRole}
          remove={remove}
        />
      )}
    </QueryGate>
  );
}
