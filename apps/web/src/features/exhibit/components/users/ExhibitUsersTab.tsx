import { Stack, Title } from '@mantine/core';
import { toLowerRole, type Exhibit, type ExhibitMember, type Permission } from '@plinth/shared';
import { QueryGate } from '../../../../components/QueryGate';
import { UsersList } from '../../../../components/UsersList';
import { useDeleteExhibitUser } from '../../api/delete-exhibit-user';
import { useExhibitUsers } from '../../api/list-exhibit-users';
import { useUpdateExhibitUserRole } from '../../api/update-exhibit-user-role';
import { AddExhibitUserForm } from './AddExhibitUserForm';
import { GranularPermissionsEditor } from './GranularPermissionsEditor';

export const NO_EXHIBIT_USERS_TEXT = 'No users have been added to this exhibit yet.';

/** An exhibit user as the shared users list shows every scope's users (lowercase roles). */
const toPermission = (member: ExhibitMember): Permission => ({
  ...member,
  role: toLowerRole(member.role),
});

/**
 * The exhibit's Users tab (spec 2.10, managers only): Add User, then the users by email, each
 * opening to its granular permissions. Managers change roles and remove users; the list says how
 * each ended (a refused change shows the server's text: the last manager…).
 */
export function ExhibitUsersTab({ exhibit }: { exhibit: Exhibit }) {
  const users = useExhibitUsers(exhibit.id);

  return (
    <QueryGate query={users} loading="Loading users" failed="The users of this exhibit cannot be shown right now.">
      {({ exhibitUsers, canManage }) => <ExhibitUsersList exhibitId={exhibit.id} exhibitUsers={exhibitUsers} canManage={canManage} />}
    </QueryGate>
  );
}

function ExhibitUsersList({ exhibitId, exhibitUsers, canManage }: { exhibitId: string; exhibitUsers: ExhibitMember[]; canManage: boolean }) {
  const updateRole = useUpdateExhibitUserRole(exhibitId);
  const remove = useDeleteExhibitUser(exhibitId);

  return (
    <Stack gap="md">
      <Title order={4}>Users</Title>
      {canManage && <AddExhibitUserForm exhibitId={exhibitId} />}
      <UsersList
        permissions={exhibitUsers.map(toPermission)}
        canManage={canManage}
        emptyText={NO_EXHIBIT_USERS_TEXT}
        scopeLabel="this exhibit"
        updateRole={updateRole}
        remove={remove}
        renderDetails={(p) => <GranularPermissionsEditor exhibitId={exhibitId} userId={p.userId} email={p.email} canEdit={canManage} />}
      />
    </Stack>
  );
}
