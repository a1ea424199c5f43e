import { Button, Group, Stack } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { can, parseRole, type Organization } from '@plinth/shared';
import { UsersList } from '../../../components/UsersList';
import { UsersListAddDialog } from '../../../components/UsersListAddDialog';
import { useCreatePermission } from '../../../lib/api/create-permission';
import { useDeletePermission } from '../../../lib/api/delete-permission';
import { usePermissions, type PermissionOwner } from '../../../lib/api/list-permissions';
import { useUpdatePermission } from '../../../lib/api/update-permission';

/** The organization's users: managers add users, change roles and remove them; others read roles. */
export function OrganizationUsersTab({ organization }: { organization: Organization }) {
  const owner: PermissionOwner = { scope: 'organization', id: organization.id };
  const permissions = usePermissions(owner);
  const add = useCreatePermission(owner);
  const updateRole = useUpdatePermission(owner);
  const remove = useDeletePermission(owner);
  const [adding, setAdding] = useState(false);
  const canManage = permissions.data?.canManage ?? (organization.isAdmin || can(parseRole(organization.role), 'manageUsers'));

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
        updateRole={updateRole}
        remove={remove}
      />
      <UsersListAddDialog
        opened={adding}
        onClose={() => setAdding(false)}
        scope="organization"
        onSubmit={(email, role) => add.mutateAsync({ email, role })}
        mutation={add}
      />
    </Stack>
  );
}
