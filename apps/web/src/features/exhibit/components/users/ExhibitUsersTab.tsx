import { Alert, Stack, Title } from '@mantine/core';
import { toLowerRole, type Exhibit, type ExhibitMember, type Permission } from '@plinth/shared';
import { PageState } from '../../../../components/PageState';
import { UsersList } from '../../../../components/UsersList';
import { errorText } from '../../../../lib/mutation-state';
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
 * opening to its granular permissions. Managers change roles and remove users; a refused change
 * (the last manager…) shows the server's text.
 */
export function ExhibitUsersTab({ exhibit }: { exhibit: Exhibit }) {
  const users = useExhibitUsers(exhibit.id);
  const updateRole = useUpdateExhibitUserRole(exhibit.id);
  const remove = useDeleteExhibitUser(exhibit.id);

  if (!users.data) {
    if (users.isError) {
      return (
        <PageState
          kind="error"
          label={`The users of this exhibit cannot be shown right now. ${errorText(users.error, '')}`.trim()}
          onRetry={() => void users.refetch()}
          isRetrying={users.isFetching}
        />
      );
    }
    return <PageState kind="loading" label="Loading users" />;
  }

  const { exhibitUsers, canManage } = users.data;
  const failure = updateRole.error ?? remove.error;
  const handleCloseFailure = () => {
    updateRole.reset();
    remove.reset();
  };

  return (
    <Stack gap="md">
      <Title order={4}>Users</Title>
      {canManage && <AddExhibitUserForm exhibitId={exhibit.id} />}
      {failure && (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={handleCloseFailure}>
          {errorText(failure, 'The change could not be saved.')}
        </Alert>
      )}
      <UsersList
        permissions={exhibitUsers.map(toPermission)}
        canManage={canManage}
        emptyText={NO_EXHIBIT_USERS_TEXT}
        scopeLabel="this exhibit"
        updateRole={updateRole}
        remove={remove}
        renderDetails={(p) => <GranularPermissionsEditor exhibitId={exhibit.id} userId={p.userId} email={p.email} canEdit={canManage} />}
      />
    </Stack>
  );
}
