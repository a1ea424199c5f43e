import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { parseManifest } from '@plinth/shared';
import { queryKeys } from '../../../lib/query-keys';
import { HELP_TOPICS } from '../help-topics';
import { SAMPLE_MANIFEST } from '../topics/sample-manifest';
import { HelpPage } from './HelpPage';

function renderHelp(helpId: string) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(queryKeys.config, {
    supportEmail: 'help@museum.example',
    analyticsUrl: null,
    mqttPort: 18830,
    reportUrlPrefix: 'https://lookerstudio.google.com/embed/',
  });
  render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[`/help/${helpId}`]}>
          <Routes>
            <Route path="/help/:helpId" element={<HelpPage />} />
            <Route path="/notfound" element={<p>not found page</p>} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('HelpPage', () => {
  it('has the ten topics of the spec in three categories', () => {
    expect(HELP_TOPICS.map((t) => t.id)).toEqual([
      'create_new_exhibit',
      'prepare_manifest',
      'connect_exhibit',
      'live_controls',
      'update_settings',
      'update_statuses',
      'create_new_hardware',
      'connect_hardware',
      'peripherals',
      'bug',
    ]);
  });

  it('shows a sample manifest that the shared manifest schema accepts', () => {
    const result = parseManifest(SAMPLE_MANIFEST);
    expect(result).toMatchObject({ success: true });
  });

  it('sends an unknown id to the not-found page', () => {
    renderHelp('no_such_topic');
    expect(screen.getByText('not found page')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
  });

  it('shows the first topic with only a next link', () => {
    renderHelp('create_new_exhibit');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Create a new exhibit');
    expect(screen.getByText(/admin or write privileges can create exhibits/)).toBeInTheDocument();
    const steps = screen.getByRole('navigation', { name: 'Previous and next topic' });
    expect(within(steps).getAllByRole('link')).toHaveLength(1);
    expect(within(steps).getByRole('link', { name: 'Next: Prepare a manifest' })).toHaveAttribute(
      'href',
      '/help/prepare_manifest',
    );
  });

  it('quotes the MQTT port and the support address from the server configuration', () => {
    renderHelp('connect_hardware');
    expect(screen.getAllByText('18830').length).toBeGreaterThan(0);
    const steps = screen.getByRole('navigation', { name: 'Previous and next topic' });
    expect(within(steps).getByRole('link', { name: 'Previous: Create new hardware' })).toBeInTheDocument();
    expect(within(steps).getByRole('link', { name: 'Next: Peripherals' })).toBeInTheDocument();
  });

  it('directs bug reports to the support email', () => {
    renderHelp('bug');
    expect(screen.getByRole('link', { name: 'help@museum.example' })).toHaveAttribute('href', 'mailto:help@museum.example');
    const menu = screen.getByRole('navigation', { name: 'Help topics' });
    expect(within(menu).getByRole('link', { name: 'Report a bug' })).toHaveAttribute('aria-current', 'page');
  });
});
