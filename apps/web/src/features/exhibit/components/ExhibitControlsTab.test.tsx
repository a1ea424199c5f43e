import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Control } from '@plinth/shared';
import { queryKeys } from '../../../lib/query-keys';
import { errorBody, EXHIBIT, exhibitBody, json, manifestBody, newQueryClient, renderWith, serve } from '../test/fixtures';
import { ExhibitControlsTab, READ_ONLY_CONTROL_HINT } from './ExhibitControlsTab';

const control = (over: Partial<Control> & Pick<Control, 'manifestId'>): Control => ({
  id: `rec-${over.manifestId}`,
  type: 'Single',
  display: over.manifestId,
  write: true,
  enabledOpMode: 'none',
  order: 0,
  items: [],
  ...over,
});

const controls = [
  control({ manifestId: 'reload', display: 'Reload', order: 0 }),
  control({ manifestId: 'night_show', display: 'Night show', enabledOpMode: 'Off', order: 1 }),
  control({
    manifestId: 'volume',
    display: 'Volume',
    type: 'Group',
    order: 2,
    items: [
      { id: 'up', display: 'Up', order: 0, uniqueId: 'u1' },
      { id: 'down', display: 'Down', order: 1, uniqueId: 'u2' },
    ],
  }),
  control({ manifestId: '$gb_reset', display: 'Hidden reset', order: 3 }),
];

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ExhibitControlsTab', () => {
  it('fires single and group controls, disables those of the other op mode, and shows an offline refusal', async () => {
    let offline = false;
    const calls = serve((call) =>
      call.path.includes('/control/') ? (offline ? errorBody('ExhibitOffline', 'ExhibitOffline', 409) : json({ delivered: true })) : undefined,
    );
    const queryClient = newQueryClient();
    queryClient.setQueryData(queryKeys.exhibitManifest(EXHIBIT), manifestBody({ controls }));
    const user = userEvent.setup();
    renderWith(<ExhibitControlsTab exhibit={exhibitBody({ opMode: 'On' })} />, queryClient);

    expect(screen.queryByText('Hidden reset')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Night show' })).toBeDisabled();
    expect(screen.getByText('Available when the op mode is Off.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(await screen.findByText('Reload was sent to the exhibit.')).toBeInTheDocument();
    await user.click(within(screen.getByRole('group', { name: 'Volume' })).getByRole('button', { name: 'Down' }));
    expect(calls.map((c) => `${c.path}${c.query}`)).toEqual([
      `/exhibit-management/exhibit/${EXHIBIT}/control/reload`,
      `/exhibit-management/exhibit/${EXHIBIT}/control/volume?itemId=down`,
    ]);

    offline = true;
    await user.click(within(screen.getByRole('group', { name: 'Volume' })).getByRole('button', { name: 'Up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The exhibit is offline.');
  });

  it('disables every control without the right to fire it', () => {
    serve(() => undefined);
    const queryClient = newQueryClient();
    queryClient.setQueryData(queryKeys.exhibitManifest(EXHIBIT), manifestBody({ controls: controls.map((c) => ({ ...c, write: false })) }));
    renderWith(<ExhibitControlsTab exhibit={exhibitBody()} />, queryClient);
    expect(screen.getByRole('button', { name: 'Reload' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Up' })).toBeDisabled();
  });

  it('says why a control the caller may see but not use is disabled', async () => {
    serve(() => undefined);
    const queryClient = newQueryClient();
    queryClient.setQueryData(queryKeys.exhibitManifest(EXHIBIT), manifestBody({ controls: [controls[0]!, { ...controls[2]!, write: false }] }));
    renderWith(<ExhibitControlsTab exhibit={exhibitBody()} />, queryClient);
    const [readOnly, ...others] = screen.getAllByTestId('read-only-control');
    expect(others).toHaveLength(0);
    expect(within(readOnly!).getByRole('button', { name: 'Up' })).toBeDisabled();
    expect(within(readOnly!).getByRole('button', { name: 'Down' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeEnabled();
    await userEvent.hover(readOnly!);
    expect(await screen.findByText(READ_ONLY_CONTROL_HINT)).toBeInTheDocument();
  });
});
