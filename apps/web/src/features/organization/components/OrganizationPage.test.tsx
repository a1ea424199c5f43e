import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Organization, Setting, SiteSummary } from '@plinth/shared';
import { OrganizationPage } from './OrganizationPage';

const ORG = '00000000-0000-4000-8000-00000000000a';

function site(id: string, name: string): SiteSummary {
  return { id, name, organizationId: ORG, organizationName: 'Acme Museum', role: 'manager', canCreate: true, createdAt: '' };
}
const sites = [site('00000000-0000-4000-8000-0000000000b1', 'Main Hall'), site('00000000-0000-4000-8000-0000000000b2', 'Annex')];
const textSetting: Setting = {
  id: 's1',
  idString: 'support_contact',
  display: 'Support Contact',
  value: '',
  kind: 'text',
  OrganizationId: ORG,
  SiteId: null,
};

type World = { isAdmin: boolean; settings: Setting[]; sites: SiteSummary[]; deleteAnswer: { status: number; body: unknown }; orgStatus: number };

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function serve(w: World) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    const method = init?.method ?? 'GET';
    const p = url.pathname.replace('/api/v1', '');
    calls.push(`${method} ${p}`);
    if (p === `/org-management/organization/${ORG}` && method === 'DELETE') return json(w.deleteAnswer.body, w.deleteAnswer.status);
    if (p === `/org-management/organization/${ORG}`) {
      if (w.orgStatus !== 200) return json({ response: 'NotFound', code: 'NotFound', message: 'Not found' }, w.orgStatus);
      const body: Organization = {
        id: ORG,
        name: 'Acme Museum',
        role: w.isAdmin ? 'manager' : 'viewer',
        isAdmin: w.isAdmin,
        canCreate: w.isAdmin,
        createdAt: '',
        sites: w.sites,
        organizationsettings: w.settings,
      };
      return json(body);
    }
    if (p === `/org-management/organization/${ORG}/sites`) return json({ sites: w.sites });
    if (p === '/exhibit-management/exhibit/by-site-ids/') return json({ exhibits: [] });
    if (p === '/org-management/permission/organization') return json({ permissions: [], canManage: w.isAdmin });
    return json({ response: 'NotFound', code: 'NotFound', message: 'Not found' }, 404);
  });
  return calls;
}

function Where() {
  return <div data-testid="location">{useLocation().pathname}</div>;
}

function renderAt(path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/organization/:orgId/:orgTab" element={<OrganizationPage />} />
            <Route path="*" element={<div>elsewhere</div>} />
          </Routes>
          <Where />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const base: World = { isAdmin: false, settings: [], sites, deleteAnswer: { status: 200, body: { ok: true } }, orgStatus: 200 };

beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('OrganizationPage', () => {
  it('lists and searches sites for a viewer, without admin actions', async () => {
    serve(base);
    renderAt(`/organization/${ORG}/sites`);
    expect(await screen.findByRole('heading', { name: 'Acme Museum' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('button', { name: 'Edit organization name' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Site' })).not.toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Settings' })).not.toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'API keys' })).not.toBeInTheDocument();

    expect(screen.getByRole('link', { name: /Main Hall/ })).toHaveAttribute('href', `/organization/${ORG}/site/${sites[0]!.id}/exhibits`);
    const search = screen.getByPlaceholderText('Search for a site');
    await userEvent.type(search, 'ANN');
    expect(screen.queryByRole('link', { name: /Main Hall/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Annex/ })).toBeInTheDocument();
    await userEvent.type(search, 'zzz');
    expect(screen.getByText('No sites match the search criteria.')).toBeInTheDocument();
    fireEvent.keyDown(search, { key: 'Escape' });
    expect(screen.getAllByRole('link', { name: /Main Hall|Annex/ })).toHaveLength(2);
  });

  it('says when the organization has no sites', async () => {
    serve({ ...base, sites: [] });
    renderAt(`/organization/${ORG}/sites`);
    expect(await screen.findByText('No sites available yet.')).toBeInTheDocument();
  });

  it('gives an admin Create Site, edit, delete and the Settings tab', async () => {
    serve({ ...base, isAdmin: true, settings: [textSetting] });
    renderAt(`/organization/${ORG}/sites`);
    expect(await screen.findByRole('button', { name: 'Create Site' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit organization name' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Settings' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'API keys' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Edit organization name' }));
    expect(screen.getByText('Edit organization name', { selector: 'h2' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('shows the locked exhibits the server names when a delete is refused', async () => {
    serve({
      ...base,
      isAdmin: true,
      deleteAnswer: {
        status: 409,
        body: { response: 'x', code: 'LockedExhibits', message: 'x', details: { lockedExhibits: [{ id: 'e1', name: 'Star Dome' }] } },
      },
    });
    renderAt(`/organization/${ORG}/sites`);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete organization' }));
    await userEvent.type(screen.getByLabelText('Type Acme Museum to confirm'), 'Acme Museum{Enter}');
    expect(await screen.findByText('This organization cannot be deleted because it contains locked exhibits.')).toBeInTheDocument();
    expect(screen.getByText('Star Dome')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(`/organization/${ORG}/sites`);
  });

  it('goes home after deleting', async () => {
    serve({ ...base, isAdmin: true });
    renderAt(`/organization/${ORG}/sites`);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete organization' }));
    await userEvent.type(screen.getByLabelText('Type Acme Museum to confirm'), 'Acme Museum{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it.each([
    [404, '/notfound'],
    [403, '/forbidden'],
    [500, '/'],
  ])('logs a failed read (%i) and goes to %s, as the exhibit screen does', async (status, target) => {
    serve({ ...base, orgStatus: status });
    renderAt(`/organization/${ORG}/sites`);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(new RegExp(`^${target}$`)));
    expect(console.error).toHaveBeenCalled();
  });

  it('sends the Settings tab home when the organization has no settings', async () => {
    serve(base);
    renderAt(`/organization/${ORG}/settings`);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it('sends an unknown tab home', async () => {
    serve(base);
    renderAt(`/organization/${ORG}/nonsense`);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });
});
