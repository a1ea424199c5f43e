import { useQueryClient } from '@tanstack/react-query';
import { deleteSitePermission, updateSitePermission, useSitePermissions } from '../../../api/permissions';
import { queryKeys } from '../../../api/query-keys';
import { UsersList } from '../../../components/UsersList';

/** The site's users under 'Site users'; the Add Users button sits in the site header. */
export function SiteUsersTab({ siteId, canManage }: { siteId: string; canManage: boolean }) {
  const queryClient = useQueryClient();
  const permissions = useSitePermissions(siteId);
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.sitePermissions(siteId) });
  if (permissions.isError) console.error('User list load failed', permissions.error);
  return (
    <UsersList
      title="Site users"
      permissions={permissions.data?.permissions ?? []}
      canManage={permissions.data?.canManage ?? canManage}
      isLoading={permissions.isPending}
      emptyText="There are no site users."
      scopeLabel="this site"
      onChangeRole={async (p, role) => {
        await updateSitePermission(p.id, role);
        await refresh();
      }}
      onRemove={async (p) => {
        await deleteSitePermission(p.id);
        await refresh();
      }}
    />
  );
}
