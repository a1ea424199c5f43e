import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ForbiddenPage } from './ForbiddenPage';
import { NotFoundPage } from './NotFoundPage';

function renderPage(page: React.ReactNode) {
  render(
    <MantineProvider>
      <MemoryRouter>{page}</MemoryRouter>
    </MantineProvider>,
  );
}

describe('error pages', () => {
  it('Forbidden explains the missing access and leads home', () => {
    renderPage(<ForbiddenPage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('You do not have access to Plinth.');
    expect(screen.getByText('Please make sure you have received an invitation.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
  });

  it('Not found leads home', () => {
    renderPage(<NotFoundPage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Page not found or not accessible.');
    expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
  });
});
