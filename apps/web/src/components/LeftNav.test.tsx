import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { LEFT_NAV_WINDOW_FROM, LeftNav } from './LeftNav';

describe('LeftNav', () => {
  it('shows back, home, title, leader groups and other items with the active one marked', async () => {
    const onBack = vi.fn();
    render(
      <MantineProvider env="test">
        <MemoryRouter>
          <LeftNav
            title="Main Hall"
            onBack={onBack}
            groups={[
              {
                leader: { id: 'l1', label: 'Dome', to: '/x/l1', online: true, connected: true },
                followers: [{ id: 'f1', label: 'Dome Left', to: '/x/f1', online: false, connected: false }],
              },
            ]}
            items={[{ id: 'i1', label: 'Kiosk', to: '/x/i1' }]}
            activeId="f1"
          />
        </MemoryRouter>
      </MantineProvider>,
    );
    expect(screen.getByRole('heading', { name: 'Main Hall' })).toBeInTheDocument();
    const group = screen.getByRole('group', { name: 'Dome group' });
    expect(within(group).getByText('Leader')).toBeInTheDocument();
    expect(within(group).getByText('Follower')).toBeInTheDocument();
    expect(within(group).getByLabelText('Online')).toBeInTheDocument();
    expect(within(group).getByLabelText('Offline')).toBeInTheDocument();

    const active = screen.getByRole('link', { name: /Dome Left/ });
    expect(active).toHaveAttribute('aria-current', 'page');
    expect(active).toHaveAttribute('href', '/x/f1');
    expect(screen.getByRole('link', { name: /Kiosk/ })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');

    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Back' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(onBack).toHaveBeenCalledTimes(1);
  });

  it('draws only the entries near the scrolled view of a long list (a site with thousands of boards)', () => {
    const items = Array.from({ length: 5000 }, (_, i) => ({ id: `b${i}`, label: `Board ${i}`, to: `/x/b${i}` }));
    render(
      <MantineProvider env="test">
        <MemoryRouter>
          <LeftNav title="Main Hall" onBack={() => undefined} items={items} activeId="b0" />
        </MemoryRouter>
      </MantineProvider>,
    );
    const entries = screen.getAllByRole('link', { name: /^Board / });
    expect(entries[0]).toHaveTextContent('Board 0');
    expect(entries.length).toBeLessThan(LEFT_NAV_WINDOW_FROM);
  });
});
