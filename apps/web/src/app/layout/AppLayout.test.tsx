import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '@plinth/shared';
import { queryKeys } from '../../lib/query-keys';
import { AppLayout } from './AppLayout';

const me: CurrentUser = {
  id: '00000000-0000-4000-8000-0000000000aa',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  profile_image: null,
  isPlatformAdmin: false,
};

function renderLayout() {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(queryKeys.me, me);
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/']}>
          <Routes>
            <Route element={<AppLayout />}>
              <Route path="/" element={<div>page body</div>} />
            </Route>
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('AppLayout', () => {
  it('shows the page under a top bar with the home mark, Help and initials for a user without a picture', () => {
    renderLayout();
    expect(screen.getByText('page body')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Plinth home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Help' })).toHaveAttribute('href', '/help/create_new_exhibit');
    expect(screen.getByText('AL')).toBeInTheDocument();
  });

  it('opens the profile menu with name, email and its entries, and Submit a Ticket opens the form', async () => {
    const user = userEvent.setup();
    renderLayout();
    await user.click(screen.getByRole('button', { name: 'Open profile menu' }));
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('menuitem', { name: 'Logout' })).toBeInTheDocument();
    await user.click(screen.getByRole('menuitem', { name: 'Submit a Ticket' }));
    const submit = await screen.findByRole('button', { name: 'Submit' });
    expect(submit).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: /Subject/ }), 'Kiosk 3 frozen');
    await user.type(screen.getByRole('textbox', { name: /Description/ }), 'The touch screen stopped answering at 10:05.');
    expect(submit).toBeEnabled();
  });
});
