import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Exhibit, ManifestResponse } from '@plinth/shared';
import { CLICK_GUARD_MS } from '@plinth/shared';
import { queryKeys } from '../../../lib/query-keys';
import { errorBody, EXHIBIT, exhibitBody, json, manifestBody, newQueryClient, ORG, renderWith, serve, setting, settingList } from '../test/fixtures';
import { APPLY_TO_FOLLOWERS_FAILURE, APPLY_TO_FOLLOWERS_SUCCESS, ExhibitSettingsTab, opModeDiscardText, READ_ONLY_SETTING_HINT } from './ExhibitSettingsTab';

const dropdownItems = [
  { id: 'day', display: 'Day', order: 0 },
  { id: 'night', display: 'Night', order: 1 },
];

function baseManifest(): ManifestResponse {
  return manifestBody({
    settings: [
      setting({
        manifestId: 'sound',
        display: 'Sound',
        type: 'Toggle',
        value: false,
        order: 0,
      }),
      setting({
        manifestId: 'volume',
        display: 'Volume',
        type: 'IntegerInput',
        value: 5,
        min: 0,
        max: 10,
        order: 1,
      }),
      setting({
        manifestId: 'theme',
        display: 'Theme',
        type: 'Dropdown',
        value: 'day',
        items: dropdownItems,
        order: 2,
      }),
      setting({
        manifestId: 'kiosk_name',
        display: 'Kiosk name',
        type: 'TextInput',
        value: 'Lobby',
        order: 3,
      }),
      setting({
        manifestId: '$gb_internal',
        display: 'Internal',
        type: 'TextInput',
        value: 'x',
        order: 4,
      }),
      setting({
        manifestId: 'night_only',
        display: 'Night only',
        type: 'Toggle',
        value: false,
        enabledOpMode: 'Off',
        order: 5,
      }),
      setting({
        manifestId: 'pending_one',
        display: 'Pending one',
        type: 'TextInput',
        value: 'new',
        applied: false,
        version: 2,
        order: 6,
      }),
    ],
    settingGroups: [
      {
        id: 'g1',
        manifestId: 'display',
        type: 'SettingsGroup',
        groupDisplay: 'Display',
        orderSelf: 0,
        settings: [
          setting({
            manifestId: 'brightness',
            display: 'Brightness',
            type: 'IntegerInput',
            value: 70,
          }),
        ],
        strapiContent: [],
        settingGroups: [],
        settingLists: [
          settingList({ manifestId: 'scenes', listDisplay: 'Scenes' }, [
            {
              listName: 'Morning',
              values: [
                setting({
                  manifestId: 'title',
                  display: 'Title',
                  type: 'TextInput',
                  value: 'Hello',
                }),
              ],
            },
            {
              listName: 'Evening',
              values: [
                setting({
                  manifestId: 'title',
                  display: 'Title',
                  type: 'TextInput',
                  value: 'Bye',
                }),
              ],
            },
          ]),
        ],
      },
    ],
  });
}

function setup(exhibit: Exhibit, manifest = baseManifest()) {
  const queryClient = newQueryClient();
  queryClient.setQueryData(queryKeys.exhibitManifest(EXHIBIT), manifest);
  queryClient.setQueryData(queryKeys.organization(ORG), {
    id: ORG,
    name: 'Acme Museum',
    organizationsettings: [],
  });
  const onDirtyChange = vi.fn();
  renderWith(<ExhibitSettingsTab exhibit={exhibit} onDirtyChange={onDirtyChange} />, queryClient);
  return { queryClient, onDirtyChange };
}

function Providers({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>{children}</MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>
  );
}

const field = (id: string) => screen.getByTestId(`setting-${id}`);

beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ExhibitSettingsTab', () => {
  it('marks edits Modified, reverts them, and saves typed values of a toggle, an integer, a dropdown and a text', async () => {
    let current = baseManifest();
    const calls = serve((call) => {
      if (call.method === 'POST' && call.path.startsWith(`/exhibit-management/exhibit/${EXHIBIT}/setting/`)) {
        const id = decodeURIComponent(call.path.split('/').pop()!);
        const value = (call.body as { value: unknown }).value;
        current = {
          ...current,
          manifest: {
            ...current.manifest,
            settings: current.manifest.settings.map((s) => (s.manifestId === id ? { ...s, value: value as never, version: 2, applied: false } : s)),
          },
        };
        return json({ ok: true });
      }
      if (call.path === `/exhibit-management/exhibit/${EXHIBIT}/manifest`) return json(current);
      return undefined;
    });
    const user = userEvent.setup();
    const { onDirtyChange } = setup(exhibitBody());

    expect(screen.getByText('All Settings /')).toBeInTheDocument();
    expect(screen.queryByText('Internal')).not.toBeInTheDocument();
    expect(screen.queryAllByText('Modified')).toHaveLength(0);
    expect(within(field('pending_one')).getByText('Not applied yet')).toBeInTheDocument();
    expect(within(field('sound')).getByText('Applied')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Revert' })).toBeDisabled();

    const edit = async () => {
      await user.click(screen.getByRole('switch', { name: 'Sound' }));
      const volume = screen.getByRole('textbox', { name: 'Volume' });
      await user.clear(volume);
      await user.type(volume, '8');
      await user.click(screen.getByRole('textbox', { name: 'Theme' }));
      await user.click(await screen.findByRole('option', { name: 'Night' }));
      const name = screen.getByRole('textbox', { name: 'Kiosk name' });
      await user.clear(name);
      await user.type(name, 'Atrium');
    };
    await edit();
    for (const id of ['sound', 'volume', 'theme', 'kiosk_name']) expect(within(field(id)).getByText('Modified')).toBeInTheDocument();
    expect(onDirtyChange).toHaveBeenLastCalledWith(true);

    await user.click(screen.getByRole('button', { name: 'Revert' }));
    expect(screen.queryAllByText('Modified')).toHaveLength(0);
    expect(screen.getByRole('switch', { name: 'Sound' })).not.toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Volume' })).toHaveValue('5');
    expect(screen.getByRole('textbox', { name: 'Kiosk name' })).toHaveValue('Lobby');
    expect(onDirtyChange).toHaveBeenLastCalledWith(false);

    await edit();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryAllByText('Modified')).toHaveLength(0));
    const saves = calls.filter((c) => c.method === 'POST').map((c) => [decodeURIComponent(c.path.split('/').pop()!), c.body]);
    expect(saves).toEqual(
      expect.arrayContaining([
        ['sound', { value: true }],
        ['volume', { value: 8 }],
        ['theme', { value: 'night' }],
        ['kiosk_name', { value: 'Atrium' }],
      ]),
    );
    expect(saves).toHaveLength(4);
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();
    // The saved values now wait for the exhibit to apply them.
    expect(within(field('sound')).getByText('Not applied yet')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Sound' })).toBeChecked();
  });

  it('refuses to save an integer outside its limits', async () => {
    serve(() => undefined);
    const user = userEvent.setup();
    setup(exhibitBody());
    const volume = screen.getByRole('textbox', { name: 'Volume' });
    await user.clear(volume);
    expect(within(field('volume')).getByText('Modified')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('disables a setting bound to the other op mode, and clears edits and navigation when the op mode changes', async () => {
    serve(() => undefined);
    const user = userEvent.setup();
    const queryClient = newQueryClient();
    queryClient.setQueryData(queryKeys.exhibitManifest(EXHIBIT), baseManifest());
    const ui = (exhibit: Exhibit) => (
      <Providers queryClient={queryClient}>
        <ExhibitSettingsTab exhibit={exhibit} onDirtyChange={() => undefined} />
      </Providers>
    );
    const { rerender } = render(ui(exhibitBody({ opMode: 'On' })));
    expect(screen.getByRole('switch', { name: 'Night only' })).toBeDisabled();
    expect(within(field('night_only')).getByText('Editable when the op mode is Off.')).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Sound' }));
    await user.click(screen.getByRole('button', { name: /Display/ }));
    expect(screen.getByText('Brightness')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    rerender(ui(exhibitBody({ opMode: 'Off', op_mode: false })));
    expect(screen.queryAllByText('Modified')).toHaveLength(0);
    expect(screen.queryByText('Brightness')).not.toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Night only' })).toBeEnabled();
    // The edit that was lost is announced.
    expect(screen.getByRole('alert')).toHaveTextContent(opModeDiscardText('Off'));
    // A change with nothing pending says nothing.
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    rerender(ui(exhibitBody({ opMode: 'On' })));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('navigates groups, lists and items under the All Settings breadcrumb with a back button', async () => {
    serve(() => undefined);
    const user = userEvent.setup();
    setup(exhibitBody());
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: /Display/ }));
    expect(screen.getByRole('navigation', { name: 'Settings navigation' })).toHaveTextContent('All Settings / Display');
    expect(screen.getByRole('button', { name: /Scenes/ })).toHaveTextContent('2 items');
    await user.click(screen.getByRole('button', { name: /Scenes/ }));
    expect(screen.getByRole('navigation', { name: 'Settings navigation' })).toHaveTextContent('All Settings / Display / Scenes');
    await user.click(screen.getByRole('button', { name: 'Morning' }));
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Hello');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('button', { name: 'Evening' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'All Settings /' }));
    expect(screen.getByRole('switch', { name: 'Sound' })).toBeInTheDocument();
  });

  it('saves a list item value with its list and item', async () => {
    const calls = serve((call) => (call.method === 'POST' ? json({ ok: true }) : call.path.endsWith('/manifest') ? json(baseManifest()) : undefined));
    const user = userEvent.setup();
    setup(exhibitBody());
    await user.click(screen.getByRole('button', { name: /Display/ }));
    await user.click(screen.getByRole('button', { name: /Scenes/ }));
    await user.click(screen.getByRole('button', { name: 'Evening' }));
    await user.type(screen.getByRole('textbox', { name: 'Title' }), '!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const save = calls.find((c) => c.method === 'POST')!;
    expect(save.path).toBe(`/exhibit-management/exhibit/${EXHIBIT}/setting/title`);
    expect(save.body).toEqual({
      value: 'Bye!',
      listId: 'scenes',
      listName: 'Evening',
    });
  });

  it('copies a list item through a modal: name required, quotes and slashes stripped, server error shown', async () => {
    const calls = serve((call) => {
      if (call.path.endsWith('/settinglistitem')) {
        return errorBody('Conflict', 'An item named "Night" already exists in this list.', 409);
      }
      if (call.path.endsWith('/manifest')) return json(baseManifest());
      return undefined;
    });
    const user = userEvent.setup();
    setup(exhibitBody());
    await user.click(screen.getByRole('button', { name: /Display/ }));
    await user.click(screen.getByRole('button', { name: /Scenes/ }));
    await user.click(screen.getByRole('button', { name: 'Copy Morning' }));
    const dialog = await screen.findByRole('dialog');
    const create = within(dialog).getByRole('button', { name: 'Create' });
    expect(create).toBeDisabled();
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await user.type(name, '"/"');
    expect(create).toBeDisabled();
    await user.clear(name);
    await user.type(name, 'Ni"g/ht');
    await user.click(create);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('An item named "Night" already exists in this list.');
    const copy = calls.find((c) => c.path.endsWith('/settinglistitem'))!;
    expect(copy.path).toBe(`/exhibit-management/exhibit/${EXHIBIT}/settinglist/scenes/settinglistitem`);
    expect(copy.body).toEqual({
      listName: 'Night',
      settingListItem: 'Morning',
    });
  });

  it('reorders and deletes list items', async () => {
    const calls = serve((call) => (call.method !== 'GET' ? json({ ok: true }) : call.path.endsWith('/manifest') ? json(baseManifest()) : undefined));
    const user = userEvent.setup();
    setup(exhibitBody());
    await user.click(screen.getByRole('button', { name: /Display/ }));
    await user.click(screen.getByRole('button', { name: /Scenes/ }));
    expect(screen.getByRole('button', { name: 'Move Morning up' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Move Morning down' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path.endsWith('/order'))?.body).toEqual({
        order: ['Evening', 'Morning'],
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Delete Evening' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    const del = calls.find((c) => c.method === 'DELETE')!;
    expect(del.path).toBe(`/exhibit-management/exhibit/${EXHIBIT}/settinglist/scenes`);
    expect(del.query).toBe('?listName=Evening');
  });

  it('lets a follower change nothing: no save, revert or list item actions, inputs disabled', async () => {
    serve(() => undefined);
    const user = userEvent.setup();
    setup(
      exhibitBody({
        leaderId: '00000000-0000-4000-8000-0000000000e0',
        leader: {
          id: '00000000-0000-4000-8000-0000000000e0',
          name: 'Main Dome',
        },
      }),
    );
    expect(screen.getByText(/This exhibit follows Main Dome/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Revert' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Apply to followers' })).not.toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Sound' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Kiosk name' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: /Display/ }));
    await user.click(screen.getByRole('button', { name: /Scenes/ }));
    expect(screen.getByRole('button', { name: 'Morning' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy Morning' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Morning' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Move Morning down' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New item' })).not.toBeInTheDocument();
  });

  it('shows Apply to followers on a leader, disabled while edits are pending, with its success and failure texts', async () => {
    let ok = true;
    const calls = serve((call) =>
      call.path.endsWith('/sync-followers') ? (ok ? json({ ok: true, followers: 1 }) : errorBody('InternalServer', 'boom', 500)) : undefined,
    );
    const user = userEvent.setup();
    setup(
      exhibitBody({
        followers: [
          {
            id: '00000000-0000-4000-8000-0000000000e2',
            name: 'Side Dome',
            online: true,
            opMode: 'On',
          },
        ],
      }),
    );
    const apply = screen.getByRole('button', { name: 'Apply to followers' });
    await user.click(screen.getByRole('switch', { name: 'Sound' }));
    expect(apply).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Revert' }));
    expect(apply).toBeEnabled();
    // It asks first, naming how many followers; Cancel sends nothing.
    await user.click(apply);
    const question = await screen.findByRole('dialog', { name: 'Apply to followers' });
    expect(question).toHaveTextContent('Replace the settings of 1 follower exhibit (Side Dome) with the current settings of Star Dome?');
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.path.endsWith('/sync-followers'))).toHaveLength(0);
    await user.click(apply);
    await user.click(within(await screen.findByRole('dialog', { name: 'Apply to followers' })).getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText(APPLY_TO_FOLLOWERS_SUCCESS)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === `/exhibit-management/exhibit/${EXHIBIT}/sync-followers`)).toHaveLength(1);
    ok = false;
    // Past the dialog's one-second guard against a double confirm.
    const later = Date.now() + CLICK_GUARD_MS;
    vi.spyOn(Date, 'now').mockReturnValue(later);
    await user.click(screen.getByRole('button', { name: 'Apply to followers' }));
    await screen.findByRole('dialog', { name: 'Apply to followers' });
    await user.keyboard('{Enter}');
    expect(await screen.findByText('There was a problem')).toBeInTheDocument();
    expect(screen.getByText(APPLY_TO_FOLLOWERS_FAILURE)).toBeInTheDocument();
  });

  it('disables editing without the write right', () => {
    serve(() => undefined);
    const manifest = baseManifest();
    manifest.manifest.settings = manifest.manifest.settings.map((s) => ({
      ...s,
      write: false,
    }));
    setup(exhibitBody({ role: 'VIEWER' }), manifest);
    expect(screen.getByRole('switch', { name: 'Sound' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Kiosk name' })).toBeDisabled();
    expect(screen.getAllByText(READ_ONLY_SETTING_HINT).length).toBeGreaterThan(0);
  });
});
