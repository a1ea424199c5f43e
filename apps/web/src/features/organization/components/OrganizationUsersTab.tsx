import { Button, Group, Stack } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { can, parseRole, type Organization } from '@plinth/shared';
import { QueryGate } from '../../../components/QueryGate';
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

  return (
    <Stack gap="md">
      {canManage && (
        <Group justify="flex-end">
          <Button leftSection={<IconUserPlus size={16} />} onClick={() => setAdding(true)}>
            Add Users
          </Button>
        </Group>
      )}
      <QueryGate query={permissions} loading="Loading users" failed="The users of this organization cannot be shown right now.">
        {(data) => (
          <UsersList
            permissions={data.permissions}
            canManage={canManage}
            emptyText="There are no users in this organization."
            scopeLabel="this organization"
            updateRole={updateRole}
            remove={remove}
          />
        )}
      </QueryGate>
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
