import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry, AuditPage, Organization } from '@plinth/shared';
import { AuditLogPage } from './AuditLogPage';

const ORG = '00000000-0000-4000-8000-00000000000a';
const SITE = '00000000-0000-4000-8000-0000000000b1';
const EXHIBIT = '00000000-0000-4000-8000-0000000000c1';

function entry(sequence: number, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    sequence,
    at: '2026-11-26T12:00:00.000Z',
    actor: { kind: 'user', id: 'u1', label: 'ada@museum.test' },
    address: '192.0.2.1',
    organizationId: ORG,
    siteId: SITE,
    exhibitId: EXHIBIT,
    hardwareId: null,
    resource: 'exhibitSetting',
    resourceId: 'volume',
    action: 'update',
    before: { value: 3 },
    after: { value: '<b>7</b>' },
    ...overrides,
  };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** The server: the organization, its exhibits, and audit pages by cursor (`failWith`: the list's status instead). */
function serve(pages: Record<string, AuditPage>, failWith?: number) {
  const asked: URLSearchParams[] = [];
  vi.stubGlobal('fetch', async (input: string) => {
    const url = new URL(input, 'http://localhost');
    const p = url.pathname.replace('/api/v1', '');
    if (p === `/org-management/organization/${ORG}`) {
      const org: Partial<Organization> = { id: ORG, name: 'Acme Museum', isAdmin: true, sites: [{ id: SITE, name: 'Main Hall' } as Organization['sites'][number]], organizationsettings: [] };
      return json(org);
    }
    if (p === '/exhibit-management/exhibit/by-site-ids/') return json({ exhibits: [{ id: EXHIBIT, name: 'Wave Tank', siteId: SITE }] });
    if (p === `/audit/organization/${ORG}/entries`) {
      asked.push(url.searchParams);
      if (failWith) return json({ response: 'Forbidden', code: 'Forbidden', message: 'Forbidden' }, failWith);
      return json(pages[url.searchParams.get('cursor') ?? ''] ?? { entries: [], nextCursor: null });
    }
    return json({ response: 'NotFound', code: 'NotFound', message: 'Not found' }, 404);
  });
  return asked;
}

function Where() {
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>;
}

function renderAt(path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/organization/:orgId/audit-log" element={<AuditLogPage />} />
          </Routes>
          <Where />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AuditLogPage', () => {
  it('shows who changed what, before → after, as text, with names for the places', async () => {
    serve({ '': { entries: [entry(2)], nextCursor: null } });
    renderAt(`/organization/${ORG}/audit-log`);
    expect(await screen.findByText('ada@museum.test')).toBeInTheDocument();
    expect(await screen.findByText('Site: Main Hall · Exhibit: Wave Tank')).toBeInTheDocument();
    expect(screen.getByLabelText('Before')).toHaveTextContent('{"value":3}');
    // Device and user text is never HTML.
    expect(screen.getByLabelText('After')).toHaveTextContent('{"value":"<b>7</b>"}');
    expect(within(screen.getByRole('table', { name: 'Audit log entries' })).getByText('Changed')).toBeInTheDocument();
  });

  it('reads the filters from the address and pages with the server cursor', async () => {
    const asked = serve({ '': { entries: [entry(3)], nextCursor: '3' }, '3': { entries: [entry(1, { actor: { kind: 'apiKey', id: 'k', label: 'API key "Sync"' } })], nextCursor: null } });
    renderAt(`/organization/${ORG}/audit-log?exhibitId=${EXHIBIT}&action=update`);
    await screen.findAllByTestId('audit-entry');
    expect(asked[0]?.get('exhibitId')).toBe(EXHIBIT);
    expect(asked[0]?.get('action')).toBe('update');
    await userEvent.click(screen.getByRole('button', { name: 'Older' }));
    expect(await screen.findByText('API key "Sync"')).toBeInTheDocument();
    expect(screen.getByText(/API key · 192\.0\.2\.1/)).toBeInTheDocument();
    expect(asked.at(-1)?.get('cursor')).toBe('3');
    expect(screen.getByRole('button', { name: 'Older' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Newer' }));
    expect(await screen.findByText('ada@museum.test')).toBeInTheDocument();
  });

  it('puts a person filter in the address, and says when nothing matches', async () => {
    const asked = serve({});
    renderAt(`/organization/${ORG}/audit-log`);
    expect(await screen.findByText('No change matches these filters.')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Person' }), 'bob@{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/audit-log?actor=bob%40'));
    await waitFor(() => expect(asked.at(-1)?.get('actor')).toBe('bob@'));
  });

  it('shows the refusal with Retry when the log cannot be read', async () => {
    serve({}, 403);
    renderAt(`/organization/${ORG}/audit-log`);
    expect(await screen.findByRole('alert')).toHaveTextContent('The audit log cannot be shown right now.');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
