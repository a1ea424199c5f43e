import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Exhibit } from '@plinth/shared';
import { SiteExhibitsTab } from './SiteExhibitsTab';

const ORG = '00000000-0000-4000-8000-000000000001';
const SITE = '00000000-0000-4000-8000-000000000002';

function exhibit(id: string, name: string, online: boolean): Exhibit {
  return {
    id,
    name,
    siteId: SITE,
    siteName: 'Main Hall',
    organizationId: ORG,
    organizationName: 'Acme Museum',
    mqttPath: '',
    leaderId: null,
    leader: null,
    manifestLocked: false,
    online,
    opMode: online ? 'On' : 'Off',
    op_mode: online,
    lastOnlineChange: online ? new Date(Date.now() - 3 * 3600_000).toISOString() : null,
    followers: [],
    role: 'VIEWER',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

const exhibits = [exhibit('e1', 'alpha', false), exhibit('e2', 'Zeta', true), exhibit('e3', 'Beta', true), exhibit('e4', 'gamma', false)];

function renderTab(list: Exhibit[]) {
  render(
    <MantineProvider env="test">
      <MemoryRouter>
        <SiteExhibitsTab exhibits={list} isLoading={false} />
      </MemoryRouter>
    </MantineProvider>,
  );
}

function cardNames(): string[] {
  return screen.getAllByTestId('exhibit-card').map((card) => card.querySelector('p')?.textContent ?? '');
}

describe('SiteExhibitsTab', () => {
  it('lists online exhibits first, then by name, each linking to its overview', () => {
    renderTab(exhibits);
    expect(cardNames()).toEqual(['Beta', 'Zeta', 'alpha', 'gamma']);
    const first = screen.getAllByTestId('exhibit-card')[0]!;
    expect(first).toHaveAttribute('href', `/organization/${ORG}/site/${SITE}/exhibits/e3/overview`);
    expect(first).toHaveTextContent('Online');
    expect(first).toHaveTextContent('Operating mode: On');
    expect(first).toHaveTextContent('Main Hall · Acme Museum');
    expect(first).toHaveTextContent(/Online for 3 hours/);
    expect(screen.getAllByTestId('exhibit-card')[2]).toHaveTextContent('Never online');
  });

  it('filters by a case-insensitive substring of the name and clears on Escape', async () => {
    renderTab(exhibits);
    const search = screen.getByPlaceholderText('Search for an exhibit');
    await userEvent.type(search, 'ETA');
    expect(cardNames()).toEqual(['Beta', 'Zeta']);

    fireEvent.keyDown(search, { key: 'Escape' });
    expect(search).toHaveValue('');
    expect(cardNames()).toHaveLength(4);

    await userEvent.type(search, 'nothing');
    expect(screen.queryAllByTestId('exhibit-card')).toHaveLength(0);
    expect(screen.getByText('No exhibits match the search criteria.')).toBeInTheDocument();
  });

  it('says when the site has no exhibits', () => {
    renderTab([]);
    expect(screen.getByText('No exhibits available yet.')).toBeInTheDocument();
  });
});
