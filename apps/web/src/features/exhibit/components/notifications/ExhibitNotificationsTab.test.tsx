import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXHIBIT_USER_MESSAGES, NOTIFICATION_TOGGLE_LABELS, NOTIFICATION_TOGGLES, type CurrentUser, type NotificationSubscription } from '@plinth/shared';
import { queryKeys } from '../../../../lib/query-keys';
import { errorBody, EXHIBIT, exhibitBody, json, newQueryClient, renderWith, serve, type Call } from '../../test/fixtures';
import { CANNOT_EDIT_OTHERS_TEXT, ExhibitNotificationsTab, MASTER_OFF_HINT } from './ExhibitNotificationsTab';

const ME: CurrentUser = {
  id: '00000000-0000-4000-8000-0000000000c1',
  firstName: 'Dee',
  lastName: 'Vee',
  email: 'dee@example.org',
  profile_image: null,
  isPlatformAdmin: false,
};

const row = (over: Partial<NotificationSubscription> & Pick<NotificationSubscription, 'id' | 'userId' | 'email'>): NotificationSubscription => ({
  notify: true,
  notify_hardware_change: false,
  notify_hardware_notification: false,
  notify_scene_changes: false,
  notify_on_delete: true,
  notify_connected: false,
  notify_op_mode: false,
  canEdit: true,
  ...over,
});

const MINE = row({ id: '00000000-0000-4000-8000-0000000000a1', userId: ME.id, email: ME.email });
const ANN = row({ id: '00000000-0000-4000-8000-0000000000a2', userId: '00000000-0000-4000-8000-0000000000b2', email: 'ann@example.org' });

type World = {
  rows: NotificationSubscription[];
  listStatus?: number;
  /** The list call never answers (so only the console itself can change what is shown). */
  listHangs?: boolean;
  /** Answers a PUT with this instead of storing it. */
  putFailure?: () => Response | Promise<Response>;
};

const PATH = `/exhibit-management/notifications/${EXHIBIT}`;

/** A server that stores the toggles a PUT sends (for the caller when there is no userId). */
function serveWorld(world: World): Call[] {
  return serve((call) => {
    if (call.path === '/exhibit-management/notifications/' && call.query === `?exhibitId=${EXHIBIT}`) {
      if (world.listStatus) return errorBody('InternalServer', 'Database unavailable', world.listStatus);
      if (world.listHangs) return new Promise<Response>(() => undefined) as unknown as Response;
      return json({ exhibitNotifications: world.rows });
    }
    if (call.path === PATH && call.method === 'PUT') {
      if (world.putFailure) return world.putFailure() as unknown as Response;
      const { userId = ME.id, ...toggles } = call.body as { userId?: string };
      world.rows = world.rows.map((r) => (r.userId === userId ? { ...r, ...toggles } : r));
      return json({ ok: true });
    }
    return undefined;
  });
}

const puts = (calls: Call[]) => calls.filter((c) => c.method === 'PUT');

function renderTab() {
  const queryClient = newQueryClient();
  queryClient.setQueryData(queryKeys.me, ME);
  return renderWith(<ExhibitNotificationsTab exhibit={exhibitBody({ role: 'MANAGER' })} />, queryClient);
}

/** Opens a user's row; its switches, by label. */
async function openRow(email: string) {
  const toggle = await screen.findByRole('button', { name: email });
  await userEvent.click(toggle);
  const item = toggle.closest('[role="listitem"]') as HTMLElement;
  return (name: keyof typeof NOTIFICATION_TOGGLE_LABELS) => within(item).getByRole('switch', { name: NOTIFICATION_TOGGLE_LABELS[name] });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ExhibitNotificationsTab', () => {
  it("shows a user's seven toggles when their row opens, the master switch first", async () => {
    serveWorld({ rows: [MINE, ANN] });
    renderTab();
    const rows = await screen.findAllByRole('listitem');
    expect(rows.map((r) => within(r).getAllByRole('button')[0]!.getAttribute('aria-label'))).toEqual(['ann@example.org', 'dee@example.org']);
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    const toggle = await openRow('dee@example.org');
    const switches = within(rows[1]!).getAllByRole('switch');
    expect(switches).toHaveLength(NOTIFICATION_TOGGLES.length);
    expect(switches[0]).toBe(toggle('notify'));
    expect(toggle('notify')).toBeChecked();
    expect(toggle('notify_on_delete')).toBeChecked();
    expect(toggle('notify_connected')).not.toBeChecked();
  });

  it("sends only the changed toggle, with the user's id for someone else's row", async () => {
    const calls = serveWorld({ rows: [MINE, ANN] });
    renderTab();
    const ann = await openRow('ann@example.org');
    await userEvent.click(ann('notify_connected'));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]).toMatchObject({ path: PATH, body: { userId: ANN.userId, notify_connected: true } });
    expect(ann('notify_connected')).toBeChecked();

    const mine = await openRow('dee@example.org');
    await userEvent.click(mine('notify_op_mode'));
    await waitFor(() => expect(puts(calls)).toHaveLength(2));
    expect(puts(calls)[1]!.body).toEqual({ notify_op_mode: true });
  });

  it('disables the other toggles while the master switch is off', async () => {
    const calls = serveWorld({ rows: [{ ...MINE, notify: false }] });
    renderTab();
    const toggle = await openRow('dee@example.org');
    expect(toggle('notify')).toBeEnabled();
    for (const name of NOTIFICATION_TOGGLES.slice(1)) expect(toggle(name)).toBeDisabled();
    expect(screen.getByText(MASTER_OFF_HINT)).toBeInTheDocument();

    await userEvent.click(toggle('notify'));
    await waitFor(() => expect(toggle('notify_scene_changes')).toBeEnabled());
    expect(puts(calls)[0]!.body).toEqual({ notify: true });
    expect(screen.queryByText(MASTER_OFF_HINT)).not.toBeInTheDocument();
  });

  it('shows the change at once and puts the old value back when the server refuses', async () => {
    let refuse: (response: Response) => void = () => undefined;
    const world: World = { rows: [MINE], putFailure: () => new Promise<Response>((resolve) => (refuse = resolve)) };
    serveWorld(world);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderTab();
    const toggle = await openRow('dee@example.org');
    await userEvent.click(toggle('notify_hardware_change'));
    // Checked before the server has answered.
    expect(toggle('notify_hardware_change')).toBeChecked();
    // Only the rollback can uncheck it: the list read after the failure never answers.
    world.listHangs = true;
    refuse(errorBody('InternalServer', 'Mail settings unavailable', 500));
    await waitFor(() => expect(toggle('notify_hardware_change')).not.toBeChecked());
    expect(await screen.findByRole('alert')).toHaveTextContent('The change could not be saved. Mail settings unavailable');
  });

  it("disables a row the caller may not change, saying why", async () => {
    serveWorld({ rows: [{ ...ANN, canEdit: false }] });
    renderTab();
    const toggle = await openRow('ann@example.org');
    for (const name of NOTIFICATION_TOGGLES) expect(toggle(name)).toBeDisabled();
    expect(screen.getByText(CANNOT_EDIT_OTHERS_TEXT)).toBeInTheDocument();
  });

  it('says when the exhibit has no users', async () => {
    serveWorld({ rows: [] });
    renderTab();
    expect(await screen.findByText(EXHIBIT_USER_MESSAGES.noUsers)).toBeInTheDocument();
    expect(EXHIBIT_USER_MESSAGES.noUsers).toBe('There are no users in this exhibit.');
  });

  it('says when the toggles cannot be read, never an empty list, and reads them again on Retry', async () => {
    const world: World = { rows: [MINE], listStatus: 500 };
    serveWorld(world);
    renderTab();
    expect(await screen.findByRole('alert')).toHaveTextContent('The notifications of this exhibit cannot be shown right now. Database unavailable');
    expect(screen.queryByText(EXHIBIT_USER_MESSAGES.noUsers)).not.toBeInTheDocument();
    world.listStatus = undefined;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'dee@example.org' })).toBeInTheDocument();
  });
});
