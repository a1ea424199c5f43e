import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Exhibit, Hardware, LowerRole, Setting, Site } from '@plinth/shared';
import { SitePage } from './SitePage';

const ORG = '00000000-0000-4000-8000-00000000000a';
const SITE = '00000000-0000-4000-8000-00000000000b';
const OTHER_SITE = '00000000-0000-4000-8000-00000000000c';
const NEW_EXHIBIT = '00000000-0000-4000-8000-0000000000e9';
const NEW_HARDWARE = '00000000-0000-4000-8000-0000000000f9';
const PREFIX = 'https://lookerstudio.google.com/embed/';

type World = { role: LowerRole; canCreate: boolean; settings: Setting[]; exhibits: Partial<Exhibit>[]; hardware: Partial<Hardware>[]; orgStatus: number; siteStatus?: number };

function siteBody(w: World): Site {
  return {
    id: SITE,
    name: 'Main Hall',
    organizationId: ORG,
    organizationName: 'Acme Museum',
    role: w.role,
    canCreate: w.canCreate,
    createdAt: '2026-01-01T00:00:00.000Z',
    sitesettings: w.settings,
  };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** Answers the console's calls from a small in-memory world, as the server's shapes say. */
function serve(w: World) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    const method = init?.method ?? 'GET';
    calls.push(`${method} ${url.pathname}`);
    const p = url.pathname.replace('/api/v1', '');
    if (p === `/org-management/site/${SITE}`) {
      return w.siteStatus ? json({ response: 'NotFound', code: 'NotFound', message: 'x' }, w.siteStatus) : json(siteBody(w));
    }
    if (p === `/org-management/site/setting/${SITE}`) return json({ siteSettings: w.settings });
    if (p === `/org-management/organization/${ORG}`) {
      return w.orgStatus === 200
        ? json({ id: ORG, name: 'Acme Museum', role: null, isAdmin: false, canCreate: false, createdAt: '', sites: [], organizationsettings: [] })
        : json({ response: 'Forbidden', code: 'Forbidden', message: 'x' }, w.orgStatus);
    }
    if (p === `/org-management/organization/${ORG}/sites`) {
      return json({
        sites: [
          { ...siteBody(w), sitesettings: undefined },
          { id: OTHER_SITE, name: 'Annex', organizationId: ORG, organizationName: 'Acme Museum', role: 'viewer', canCreate: false, createdAt: '' },
        ],
      });
    }
    if (p === '/exhibit-management/exhibit' && method === 'POST') {
      calls.push(`body ${String(init?.body)}`);
      return json({ id: NEW_EXHIBIT, name: 'Star Dome', siteId: SITE });
    }
    if (p === `/exhibit-management/exhibit/${NEW_EXHIBIT}` && method === 'PUT') {
      calls.push(`body ${String(init?.body)}`);
      return json({ id: NEW_EXHIBIT });
    }
    if (p === '/hardware-mgmt/hardware' && method === 'POST') return json({ id: NEW_HARDWARE, name: 'Board', siteId: SITE });
    if (p === '/exhibit-management/exhibit/by-site-ids/') return json({ exhibits: w.exhibits });
    if (p === '/hardware-mgmt/hardware/') return json({ hardware: w.hardware });
    if (p === `/org-management/permission/site/${SITE}`) return json({ permissions: [], canManage: w.role === 'manager' });
    if (p === '/config') return json({ supportEmail: 's@x', analyticsUrl: null, mqttPort: 1883, reportUrlPrefix: PREFIX });
    return json({ response: 'NotFound', code: 'NotFound', message: 'Not found' }, 404);
  });
  return calls;
}

function Where() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname}</div>;
}

function renderAt(path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/organization/:orgId/site/:siteId/:siteTab" element={<SitePage />} />
            <Route path="*" element={<div>elsewhere</div>} />
          </Routes>
          <Where />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const base: World = { role: 'viewer', canCreate: false, settings: [], exhibits: [], hardware: [], orgStatus: 200 };
const reportSetting: Setting = {
  id: 's1',
  idString: 'external_report_url',
  display: 'External Report URL',
  value: `${PREFIX}abc`,
  kind: 'reportUrl',
  OrganizationId: null,
  SiteId: SITE,
};

beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('SitePage', () => {
  it('shows a viewer the site without create, edit or delete actions', async () => {
    serve(base);
    renderAt(`/organization/${ORG}/site/${SITE}/exhibits`);
    expect(await screen.findByRole('heading', { name: 'Main Hall' })).toBeInTheDocument();
    expect(await screen.findByText('No exhibits available yet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Exhibit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit site name' })).not.toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Reports' })).not.toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Settings' })).not.toBeInTheDocument();
    expect(await screen.findByRole('link', { name: /Annex/ })).toHaveAttribute('href', `/organization/${ORG}/site/${OTHER_SITE}/exhibits`);
    expect(screen.getByRole('link', { name: 'Acme Museum' })).toHaveAttribute('href', `/organization/${ORG}/sites`);
  });

  it('gives a site manager create, edit and delete, and shows Reports and Settings tabs', async () => {
    serve({ ...base, role: 'manager', canCreate: true, settings: [reportSetting] });
    renderAt(`/organization/${ORG}/site/${SITE}/exhibits`);
    expect(await screen.findByRole('button', { name: 'Create Exhibit' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit site name' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete site' })).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Reports' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Settings' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('tab', { name: 'Hardware' }));
    expect(screen.getByTestId('location')).toHaveTextContent(`/organization/${ORG}/site/${SITE}/hardware`);
    expect(await screen.findByRole('button', { name: 'Create Hardware' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('tab', { name: 'Reports' }));
    expect(await screen.findByTitle('Site report')).toHaveAttribute('src', `${PREFIX}abc`);
  });

  it('refuses a report URL outside the allowed prefix', async () => {
    serve({ ...base, settings: [{ ...reportSetting, value: 'https://evil.example/report' }] });
    renderAt(`/organization/${ORG}/site/${SITE}/reports`);
    expect(await screen.findByText('The site report URL is misconfigured, please contact Support')).toBeInTheDocument();
    expect(screen.queryByTitle('Site report')).not.toBeInTheDocument();
  });

  it('sends a site that does not exist to the not-found page', async () => {
    serve({ ...base, siteStatus: 404 });
    renderAt(`/organization/${ORG}/site/${SITE}/exhibits`);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/notfound$/));
    expect(console.error).toHaveBeenCalled();
  });

  it('sends an unknown tab home', async () => {
    serve(base);
    renderAt(`/organization/${ORG}/site/${SITE}/nonsense`);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it('shows the organization name as plain text and goes home on Back when the organization cannot be read', async () => {
    serve({ ...base, orgStatus: 403 });
    renderAt(`/organization/${ORG}/site/${SITE}/exhibits`);
    expect(await screen.findByRole('heading', { name: 'Main Hall' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Acme Museum' })).not.toBeInTheDocument());
    expect(screen.getByText('Acme Museum', { selector: 'p' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Back to home' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('opens the locked-exhibit dialog instead of the delete confirmation', async () => {
    serve({
      ...base,
      role: 'manager',
      canCreate: true,
      exhibits: [
        {
          id: '00000000-0000-4000-8000-0000000000e1',
          name: 'Star Dome',
          siteId: SITE,
          siteName: 'Main Hall',
          organizationId: ORG,
          organizationName: 'Acme Museum',
          online: false,
          op_mode: false,
          opMode: 'Off',
          manifestLocked: true,
          leaderId: null,
          followers: [],
          lastOnlineChange: null,
        },
      ],
    });
    renderAt(`/organization/${ORG}/site/${SITE}/exhibits`);
    expect(await screen.findByText('Star Dome')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Delete site' }));
    expect(screen.getByText('This site cannot be deleted because it contains locked exhibits.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Type Main Hall to confirm')).not.toBeInTheDocument();
  });

  it('creates an exhibit, then sets its MQTT address, then opens its overview', async () => {
    const calls = serve({ ...base, role: 'developer' });
    renderAt(`/organization/${ORG}/site/${SITE}/exhibits`);
    await userEvent.click(await screen.findByRole('button', { name: 'Create Exhibit' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Star Dome');
    await userEvent.type(screen.getByRole('textbox', { name: 'MQTT IP Address' }), '10.0.0.5:1883{Enter}');
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(`/organization/${ORG}/site/${SITE}/exhibits/${NEW_EXHIBIT}/overview`),
    );
    const post = calls.indexOf('POST /api/v1/exhibit-management/exhibit');
    const put = calls.indexOf(`PUT /api/v1/exhibit-management/exhibit/${NEW_EXHIBIT}`);
    expect(post).toBeGreaterThanOrEqual(0);
    expect(put).toBeGreaterThan(post);
    expect(calls[put + 1]).toBe('body {"mqttPath":"10.0.0.5:1883"}');
  });

  it('creates hardware and opens its auth tab', async () => {
    serve({ ...base, role: 'developer' });
    renderAt(`/organization/${ORG}/site/${SITE}/hardware`);
    await userEvent.click(await screen.findByRole('button', { name: 'Create Hardware' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Board{Enter}');
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(`/organization/${ORG}/site/${SITE}/hardware/${NEW_HARDWARE}/auth`),
    );
  });
});
