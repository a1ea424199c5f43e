import { Button, Group, Stack } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { can, parseRole, type Organization } from '@plinth/shared';
import {
  addOrganizationUser,
  deleteOrganizationPermission,
  updateOrganizationPermission,
  useOrganizationPermissions,
} from '../../../api/permissions';
import { queryKeys } from '../../../api/query-keys';
import { UsersList } from '../../../components/UsersList';
import { UsersListAddDialog } from '../../../components/UsersListAddDialog';

/** The organization's users: managers add users, change roles and remove them; others read roles. */
export function OrganizationUsersTab({ organization }: { organization: Organization }) {
  const queryClient = useQueryClient();
  const permissions = useOrganizationPermissions(organization.id);
  const [adding, setAdding] = useState(false);
  const canManage = permissions.data?.canManage ?? (organization.isAdmin || can(parseRole(organization.role), 'manageUsers'));
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.organizationPermissions(organization.id) });

  if (permissions.isError) console.error('User list load failed', permissions.error);

  return (
    <Stack gap="md">
      {canManage && (
        <Group justify="flex-end">
          <Button leftSection={<IconUserPlus size={16} />} onClick={() => setAdding(true)}>
            Add Users
          </Button>
        </Group>
      )}
      <UsersList
        permissions={permissions.data?.permissions ?? []}
        canManage={canManage}
        isLoading={permissions.isPending}
        emptyText="There are no users in this organization."
        scopeLabel="this organization"
        onChangeRole={async (p, role) => {
          await updateOrganizationPermission(p.id, role);
          await refresh();
        }}
        onRemove={async (p) => {
          await deleteOrganizationPermission(p.id);
          await refresh();
        }}
      />
      <UsersListAddDialog
        opened={adding}
        onClose={() => setAdding(false)}
        scope="organization"
        onSubmit={async (email, role) => {
          await addOrganizationUser(organization.id, email, role);
          await refresh();
        }}
      />
    </Stack>
  );
}
