import { Notifications, notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LowerRole, Permission } from '@plinth/shared';
import { MutationHarness, renderWithClient } from '../test/mutation-harness';
import { UsersList } from './UsersList';
import { UsersListAddDialog } from './UsersListAddDialog';

const people: Permission[] = [
  { id: 'p1', userId: 'u1', email: 'zoe@example.com', firstName: 'Zoe', lastName: 'Z', role: 'developer', accountCreated: true },
  { id: 'p2', userId: 'u2', email: 'amy@example.com', firstName: '', lastName: '', role: 'viewer', accountCreated: false },
];

type Answers = { roleChange?: () => Promise<undefined>; removal?: () => Promise<undefined> };

/**
 * The list over real mutations: `onChangeRole` gets the role change, `onRemove` the removed
 * permission's id; each answers as `answers` says (done by default).
 */
function renderList(canManage: boolean, permissions = people, answers: Answers = {}) {
  const onChangeRole = vi.fn(async (_change: { permissionId: string; role: LowerRole }) => answers.roleChange?.());
  const onRemove = vi.fn(async (_permissionId: string) => answers.removal?.());
  renderWithClient(
    <>
      <Notifications />
      <MutationHarness fn={onChangeRole}>
        {(updateRole) => (
          <MutationHarness fn={onRemove}>
            {(remove) => (
              <UsersList
                title="Site users"
                permissions={permissions}
                canManage={canManage}
                emptyText="There are no site users."
                scopeLabel="this site"
                updateRole={updateRole}
                remove={remove}
              />
            )}
          </MutationHarness>
        )}
      </MutationHarness>
    </>,
  );
  return { onChangeRole, onRemove };
}

/** The add dialog over a real mutation running `onSubmit`, as the screens give it one. */
function renderAddDialog(scope: string, onSubmit: (email: string, role: LowerRole) => Promise<unknown>) {
  renderWithClient(
    <MutationHarness fn={({ email, role }: { email: string; role: LowerRole }) => onSubmit(email, role)}>
      {(mutation) => (
        <UsersListAddDialog
          opened
          onClose={() => undefined}
          scope={scope}
          onSubmit={(email, role) => mutation.mutateAsync({ email, role })}
          mutation={mutation}
        />
      )}
    </MutationHarness>,
  );
}

afterEach(() => {
  act(() => notifications.clean());
  vi.restoreAllMocks();
});

describe('UsersList', () => {
  it('shows read-only role labels and the Invitation sent badge and known names to non-managers', () => {
    renderList(false);
    expect(screen.getByRole('heading', { name: 'Site users' })).toBeInTheDocument();
    const items = screen.getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('amy@example.com');
    expect(items[0]).toHaveTextContent('Invitation sent');
    expect(items[0]).toHaveTextContent('Viewer');
    expect(items[1]).toHaveTextContent('Developer');
    expect(items[1]).not.toHaveTextContent('Invitation sent');
    expect(items[1]).toHaveTextContent('Zoe Z');
    expect(screen.queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/Role of/)).not.toBeInTheDocument();
  });

  it('lets managers remove a user after confirming', async () => {
    const { onRemove } = renderList(true);
    expect(screen.getByRole('textbox', { name: 'Role of zoe@example.com' })).toHaveValue('Developer');
    await userEvent.click(screen.getByRole('button', { name: 'Remove zoe@example.com' }));
    expect(screen.getByText('Remove zoe@example.com from this site?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(onRemove).toHaveBeenCalledWith(people[0]!.id));
  });

  it('lets managers change a role', async () => {
    const { onChangeRole } = renderList(true);
    await userEvent.click(screen.getByRole('textbox', { name: 'Role of zoe@example.com' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Manager' }));
    await waitFor(() => expect(onChangeRole).toHaveBeenCalledWith({ permissionId: 'p1', role: 'manager' }));
    expect(await screen.findByText('zoe@example.com is now a Manager of this site.')).toBeInTheDocument();
  });

  it("says when a role change is refused, with the server's reason", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderList(true, people, { roleChange: () => Promise.reject(new Error('A site needs at least one manager.')) });
    await userEvent.click(screen.getByRole('textbox', { name: 'Role of zoe@example.com' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Viewer' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The role of zoe@example.com was not changed');
    expect(alert).toHaveTextContent('A site needs at least one manager.');
    expect(screen.queryByText(/is now a/)).not.toBeInTheDocument();
  });

  it('says when a user was removed', async () => {
    renderList(true);
    await userEvent.click(screen.getByRole('button', { name: 'Remove zoe@example.com' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('zoe@example.com was removed from this site.')).toBeInTheDocument();
  });

  it("says when a removal was refused, with the server's reason", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderList(true, people, { removal: () => Promise.reject(new Error('Not allowed.')) });
    await userEvent.click(screen.getByRole('button', { name: 'Remove amy@example.com' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('amy@example.com was not removed')).toBeInTheDocument();
    expect(screen.getByText('Not allowed.')).toBeInTheDocument();
    expect(screen.queryByText(/was removed from/)).not.toBeInTheDocument();
  });

  it('shows the empty text', () => {
    renderList(true, []);
    expect(screen.getByText('There are no site users.')).toBeInTheDocument();
  });
});

describe('UsersListAddDialog', () => {
  it('sends the lowercased email with the viewer role by default', async () => {
    const onSubmit = vi.fn(async () => undefined);
    renderAddDialog('site', onSubmit);
    expect(screen.getByText(/an invitation to create one is mailed/)).toBeInTheDocument();
    const add = screen.getByRole('button', { name: 'Add' });
    expect(add).toBeDisabled();
    await userEvent.type(screen.getByRole('textbox', { name: /Email/ }), ' New.Person@Example.COM {Enter}');
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith('new.person@example.com', 'viewer'));
  });

  it('shows the server message when adding fails', async () => {
    renderAddDialog('organization', () => Promise.reject(new Error('Please check that the user has not already been added.')));
    await userEvent.type(screen.getByRole('textbox', { name: /Email/ }), 'a@b.co{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Please check that the user has not already been added.');
  });
});
