import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { BREAKPOINT_NARROW_PX } from '@plinth/shared';
import { SideNavLayout } from './SideNavLayout';

const realMatchMedia = window.matchMedia;

/** Makes the narrow-screen media query match (the test setup answers every query false). */
function pretendNarrowScreen() {
  window.matchMedia = ((query: string) => ({ ...realMatchMedia(query), matches: query === `(max-width: ${BREAKPOINT_NARROW_PX}px)` })) as typeof window.matchMedia;
}

function renderLayout() {
  render(
    <MantineProvider env="test">
      <MemoryRouter>
        <SideNavLayout navLabel="Site navigation" navWidth={240} nav={<nav aria-label="Main Hall">entries</nav>}>
          <h2>Dome</h2>
        </SideNavLayout>
      </MemoryRouter>
    </MantineProvider>,
  );
}

afterEach(() => {
  window.matchMedia = realMatchMedia;
});

describe('SideNavLayout', () => {
  it('shows the navigation beside the page on a wide screen, with no drawer button', () => {
    renderLayout();
    expect(screen.getByRole('navigation', { name: 'Main Hall' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Dome' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Site navigation' })).not.toBeInTheDocument();
  });

  it('on a narrow screen shows the page and opens the navigation in a drawer from its button', async () => {
    pretendNarrowScreen();
    renderLayout();
    expect(screen.getByRole('heading', { name: 'Dome' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main Hall' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Site navigation' }));
    const drawer = await screen.findByRole('dialog', { name: 'Site navigation' });
    expect(drawer).toContainElement(screen.getByRole('navigation', { name: 'Main Hall' }));
  });
});
