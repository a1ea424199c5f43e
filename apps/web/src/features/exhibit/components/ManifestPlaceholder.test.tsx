import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorBody, EXHIBIT, exhibitBody, json, manifestBody, renderWith, serve, setting } from '../test/fixtures';
import { ExhibitControlsTab } from './ExhibitControlsTab';
import { ExhibitOverviewTab } from './ExhibitOverviewTab';
import { ExhibitSettingsTab } from './ExhibitSettingsTab';

beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const MANIFEST = manifestBody({
  statuses: [{ id: 's1', manifestId: 'count', type: 'Integer', display: 'Visitors', default: 0, value: 7, order: 0, updatedAt: null }],
  controls: [{ id: 'c1', manifestId: 'reload', type: 'Single', display: 'Reload', write: true, enabledOpMode: 'none', order: 0, items: [] }],
  settings: [setting({ manifestId: 'kiosk', display: 'Kiosk name', type: 'TextInput', value: 'Lobby' })],
});

const tabs: { name: string; ui: () => ReactElement; empty: string; loaded: () => Promise<HTMLElement> }[] = [
  {
    name: 'overview',
    ui: () => <ExhibitOverviewTab exhibit={exhibitBody()} />,
    empty: 'This exhibit has no statuses.',
    loaded: () => screen.findByText('Visitors'),
  },
  {
    name: 'controls',
    ui: () => <ExhibitControlsTab exhibit={exhibitBody()} />,
    empty: 'This exhibit has no controls.',
    loaded: () => screen.findByRole('button', { name: 'Reload' }),
  },
  {
    name: 'settings',
    ui: () => <ExhibitSettingsTab exhibit={exhibitBody()} onDirtyChange={() => undefined} />,
    empty: 'There are no settings here.',
    loaded: () => screen.findByRole('textbox', { name: 'Kiosk name' }),
  },
];

describe('a tab built on the manifest', () => {
  it.each(tabs)('$name: a failed manifest read shows the failure with Retry, not the empty text, and Retry shows the data', async (tab) => {
    let fail = true;
    serve((call) => {
      if (call.path !== `/exhibit-management/exhibit/${EXHIBIT}/manifest`) return undefined;
      return fail ? errorBody('InternalServer', 'boom', 500) : json(MANIFEST);
    });
    const user = userEvent.setup();
    renderWith(tab.ui());

    expect(await screen.findByRole('alert')).toHaveTextContent(`The ${tab.name} of this exhibit could not be loaded.`);
    expect(screen.queryByText(tab.empty)).not.toBeInTheDocument();

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await tab.loaded()).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
