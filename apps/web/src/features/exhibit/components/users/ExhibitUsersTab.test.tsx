import { Notifications, notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXHIBIT_USER_MESSAGES, type ExhibitMember, type GranularPermissions, type ItemPermission } from '@plinth/shared';
import { FakeRealtime, renderWithRealtime } from '../../../../test/fake-realtime';
import { useExhibitLiveUsers } from '../../hooks/useExhibitLiveUsers';
import { errorBody, EXHIBIT, exhibitBody, json, renderWith, serve, type Call } from '../../test/fixtures';
import { ExhibitUsersTab, NO_EXHIBIT_USERS_TEXT } from './ExhibitUsersTab';

const ANN: ExhibitMember = {
  id: '00000000-0000-4000-8000-0000000000a1',
  userId: '00000000-0000-4000-8000-0000000000b1',
  email: 'ann@example.org',
  firstName: 'Ann',
  lastName: 'Lee',
  role: 'MANAGER',
  accountCreated: true,
};
const BOB: ExhibitMember = {
  id: '00000000-0000-4000-8000-0000000000a2',
  userId: '00000000-0000-4000-8000-0000000000b2',
  email: 'bob@example.org',
  firstName: '',
  lastName: '',
  role: 'VIEWER',
  accountCreated: false,
};

const item = (over: Partial<ItemPermission> & Pick<ItemPermission, 'id' | 'display' | 'level' | 'maxLevel'>): ItemPermission => ({
  read: over.level !== 'hidden',
  write: over.level === 'read_write',
  ...over,
});

/** Bob is a viewer: statuses and settings at most Read, controls up to Read-write. */
const BOB_LEVELS: GranularPermissions = {
  exhibitId: EXHIBIT,
  userId: BOB.userId,
  email: BOB.email,
  role: 'VIEWER',
  statuspermissions: [item({ id: 'temp', display: 'Temperature', level: 'read', maxLevel: 'read' })],
  settingpermissions: [item({ id: 'volume', display: 'Volume', level: 'read', maxLevel: 'read' })],
  settinglistpermissions: [],
  controlpermissions: [item({ id: 'restart', display: 'Restart', level: 'read_write', maxLevel: 'read_write' })],
};

type World = {
  users?: ExhibitMember[];
  canManage?: boolean;
  /** Answers the list call with this status instead. */
  listStatus?: number;
  /** Answers writes with this (status and body) instead of success. */
  writeFailure?: Response;
};

const PERMISSION = '/exhibit-management/permission';

function serveWorld(world: World): Call[] {
  return serve((call) => {
    if (call.path === `${PERMISSION}/by-exhibit-id/${EXHIBIT}`) {
      if (world.listStatus) return errorBody('InternalServer', 'Database unavailable', world.listStatus);
      return json({ exhibitUsers: world.users ?? [ANN, BOB], canManage: world.canManage ?? true });
    }
    if (call.path === `${PERMISSION}/granular` && call.method === 'GET') return json({ exhibitUser: BOB_LEVELS });
    if (call.path.startsWith(PERMISSION) && call.method !== 'GET') return world.writeFailure?.clone() ?? json({ ok: true });
    return undefined;
  });
}

const writes = (calls: Call[]) => calls.filter((c) => c.method !== 'GET');

function renderTab() {
  return renderWith(
    <>
      <Notifications />
      <ExhibitUsersTab exhibit={exhibitBody()} />
    </>,
  );
}

afterEach(() => {
  act(() => notifications.clean());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ExhibitUsersTab: the list', () => {
  it('lists users by email with their name when known and the open invitations', async () => {
    serveWorld({});
    renderTab();
    const ann = await screen.findByRole('button', { name: 'ann@example.org' });
    expect(ann).toHaveTextContent('Ann Lee');
    expect(ann).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('button', { name: 'bob@example.org' })).toHaveTextContent('Invitation sent');
    expect(screen.getByRole('textbox', { name: 'Role of ann@example.org' })).toHaveValue('Manager');
  });

  it('shows the role only, and no Add User, to a caller who may not manage users', async () => {
    serveWorld({ canManage: false });
    renderTab();
    const items = await screen.findAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Manager');
    expect(items[1]).toHaveTextContent('Viewer');
    expect(screen.queryByLabelText(/Role of/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add User' })).not.toBeInTheDocument();
  });

  it('says when nobody has been added', async () => {
    serveWorld({ users: [] });
    renderTab();
    expect(await screen.findByText(NO_EXHIBIT_USERS_TEXT)).toBeInTheDocument();
  });

  it('says when the users cannot be read, never an empty list, and reads them again on Retry', async () => {
    const world: World = { listStatus: 500 };
    serveWorld(world);
    renderTab();
    expect(await screen.findByRole('alert')).toHaveTextContent('The users of this exhibit cannot be shown right now. Database unavailable');
    expect(screen.queryByText(NO_EXHIBIT_USERS_TEXT)).not.toBeInTheDocument();
    world.listStatus = undefined;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'ann@example.org' })).toBeInTheDocument();
  });

  it('reads the users again when the server says they changed', async () => {
    const world: World = { users: [ANN] };
    serveWorld(world);
    const realtime = new FakeRealtime();
    function Live() {
      useExhibitLiveUsers(EXHIBIT);
      return <ExhibitUsersTab exhibit={exhibitBody()} />;
    }
    renderWithRealtime(<Live />, realtime);
    expect(await screen.findByRole('button', { name: 'ann@example.org' })).toBeInTheDocument();
    world.users = [ANN, BOB];
    realtime.emit({ type: 'exhibit.usersChanged', exhibitId: '00000000-0000-4000-8000-0000000000e9' });
    realtime.emit({ type: 'exhibit.usersChanged', exhibitId: EXHIBIT });
    expect(await screen.findByRole('button', { name: 'bob@example.org' })).toBeInTheDocument();
  });
});

describe('ExhibitUsersTab: Add User', () => {
  it('sends the lowercased email and the chosen role, Viewer by default, and clears the field', async () => {
    const calls = serveWorld({});
    renderTab();
    const add = await screen.findByRole('button', { name: 'Add User' });
    expect(add).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Role' })).toHaveValue('Viewer');
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), ' New.Person@Example.ORG');
    await userEvent.click(screen.getByRole('textbox', { name: 'Role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Developer' }));
    await userEvent.click(add);
    await waitFor(() => expect(writes(calls)).toEqual([expect.objectContaining({ method: 'POST', path: PERMISSION })]));
    expect(writes(calls)[0]!.body).toEqual({ exhibitId: EXHIBIT, email: 'new.person@example.org', role: 'developer' });
    expect(await screen.findByText('new.person@example.org was added to this exhibit.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('');
  });

  it('says that managers can only add existing accounts on a 403', async () => {
    serveWorld({ writeFailure: errorBody('Forbidden', 'Forbidden', 403) });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderTab();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Email' }), 'stranger@example.org{Enter}');
    expect(await screen.findByText(EXHIBIT_USER_MESSAGES.managersOnlyExisting)).toBeInTheDocument();
    // Typing again clears the old failure.
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'x');
    expect(screen.queryByText(EXHIBIT_USER_MESSAGES.managersOnlyExisting)).not.toBeInTheDocument();
  });

  it('says the user may already be added on a duplicate, and shows any other server text', async () => {
    const world: World = { writeFailure: new Response(null, { status: 409 }) };
    serveWorld(world);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderTab();
    const email = await screen.findByRole('textbox', { name: 'Email' });
    await userEvent.type(email, 'ann@example.org{Enter}');
    expect(await screen.findByText(EXHIBIT_USER_MESSAGES.alreadyAdded)).toBeInTheDocument();

    world.writeFailure = errorBody('ValidationError', 'email: InvalidEmail', 400);
    await userEvent.type(email, '{Enter}');
    expect(await screen.findByText('email: InvalidEmail')).toBeInTheDocument();
    expect(screen.queryByText(EXHIBIT_USER_MESSAGES.alreadyAdded)).not.toBeInTheDocument();
  });
});

describe('ExhibitUsersTab: roles and removal', () => {
  it('changes a role by its grant', async () => {
    const calls = serveWorld({});
    renderTab();
    await userEvent.click(await screen.findByRole('textbox', { name: 'Role of bob@example.org' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Developer' }));
    await waitFor(() => expect(writes(calls)).toEqual([expect.objectContaining({ method: 'PUT', path: `${PERMISSION}/${BOB.id}`, body: { role: 'developer' } })]));
  });

  it("shows the server's refusal of a role change", async () => {
    serveWorld({ writeFailure: errorBody('LastManager', EXHIBIT_USER_MESSAGES.lastManager, 409) });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderTab();
    await userEvent.click(await screen.findByRole('textbox', { name: 'Role of ann@example.org' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Viewer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(EXHIBIT_USER_MESSAGES.lastManager);
  });

  it('removes a user only after confirming', async () => {
    const calls = serveWorld({});
    renderTab();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove bob@example.org' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Remove bob@example.org from this exhibit?');
    expect(writes(calls)).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(writes(calls)).toEqual([expect.objectContaining({ method: 'DELETE', path: `${PERMISSION}/${BOB.id}` })]));
  });
});

describe('ExhibitUsersTab: granular permissions', () => {
  const levels = (display: string) => screen.getByRole('radiogroup', { name: `${display} permission` });
  const option = (display: string, label: string) => within(levels(display)).getByRole('radio', { name: label });

  async function openBob() {
    await userEvent.click(await screen.findByRole('button', { name: 'bob@example.org' }));
    await screen.findByRole('radiogroup', { name: 'Temperature permission' });
  }

  it("reads a user's levels only when the row opens, in four sections", async () => {
    const calls = serveWorld({});
    renderTab();
    await screen.findByRole('button', { name: 'bob@example.org' });
    expect(calls.some((c) => c.path.endsWith('/granular'))).toBe(false);
    await openBob();
    expect(calls.find((c) => c.path.endsWith('/granular'))?.query).toBe(`?exhibitId=${EXHIBIT}&userId=${BOB.userId}`);
    for (const section of ['Statuses', 'Settings', 'Setting lists', 'Controls']) expect(screen.getByRole('group', { name: section })).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Setting lists' })).getByText('None in this exhibit.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'bob@example.org' })).toHaveAttribute('aria-expanded', 'true');
  });

  it("disables the levels above the role's cap", async () => {
    serveWorld({});
    renderTab();
    await openBob();
    expect(option('Temperature', 'Read')).toBeChecked();
    expect(option('Temperature', 'Read-write')).toBeDisabled();
    expect(option('Temperature', 'Read')).toBeEnabled();
    expect(option('Temperature', 'Hidden')).toBeEnabled();
    expect(option('Volume', 'Read-write')).toBeDisabled();
    expect(option('Restart', 'Read-write')).toBeEnabled();
    expect(option('Restart', 'Read-write')).toBeChecked();
    await userEvent.hover(within(levels('Volume')).getByText('Read-write'));
    expect(await screen.findByText('Their role allows at most Read')).toBeInTheDocument();
  });

  it('saves every changed level in one call, then says so', async () => {
    const calls = serveWorld({});
    renderTab();
    await openBob();
    const save = screen.getByRole('button', { name: 'Save permissions' });
    expect(save).toBeDisabled();
    await userEvent.click(option('Temperature', 'Hidden'));
    await userEvent.click(option('Restart', 'Read'));
    // Choosing the stored level again is no change.
    await userEvent.click(option('Volume', 'Hidden'));
    await userEvent.click(option('Volume', 'Read'));
    expect(save).toBeEnabled();
    await userEvent.click(save);
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect(writes(calls)[0]).toMatchObject({
      method: 'PUT',
      path: `${PERMISSION}/granular`,
      body: {
        exhibitId: EXHIBIT,
        userId: BOB.userId,
        statuspermissions: [{ id: 'temp', level: 'hidden' }],
        settingpermissions: [],
        settinglistpermissions: [],
        controlpermissions: [{ id: 'restart', level: 'read' }],
      },
    });
    expect(await screen.findByText('The permissions of bob@example.org were saved.')).toBeInTheDocument();
  });

  it('reverts edits, and shows why a save was refused', async () => {
    const calls = serveWorld({ writeFailure: errorBody('ValidationError', 'statuspermissions: unknown item', 400) });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderTab();
    await openBob();
    await userEvent.click(option('Temperature', 'Hidden'));
    await userEvent.click(screen.getByRole('button', { name: 'Revert' }));
    expect(option('Temperature', 'Read')).toBeChecked();
    expect(screen.getByRole('button', { name: 'Save permissions' })).toBeDisabled();

    await userEvent.click(option('Temperature', 'Hidden'));
    await userEvent.click(screen.getByRole('button', { name: 'Save permissions' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('statuspermissions: unknown item');
    expect(option('Temperature', 'Hidden')).toBeChecked();
    expect(writes(calls)).toHaveLength(1);
  });
});
