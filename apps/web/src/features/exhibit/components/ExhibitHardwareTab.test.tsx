import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Exhibit, Hardware, Role } from '@plinth/shared';
import { ExhibitHardwareTab } from './ExhibitHardwareTab';

const ORG = '00000000-0000-4000-8000-00000000000a';
const SITE = '00000000-0000-4000-8000-00000000000b';
const EXHIBIT = '00000000-0000-4000-8000-0000000000e1';
const HW1 = '00000000-0000-4000-8000-0000000000f1';
const HW2 = '00000000-0000-4000-8000-0000000000f2';
const MESSAGE = 'IP address and Port numbers must be valid and of the form: ###.###.###.###:####';

function exhibit(role: Role, mqttPath = '10.0.0.1:1883'): Exhibit {
  return {
    id: EXHIBIT,
    name: 'Star Dome',
    siteId: SITE,
    siteName: 'Main Hall',
    organizationId: ORG,
    organizationName: 'Acme Museum',
    mqttPath,
    leaderId: null,
    leader: null,
    manifestLocked: false,
    online: true,
    opMode: 'On',
    op_mode: true,
    lastOnlineChange: null,
    followers: [],
    role,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

function hardware(id: string, name: string, overrides: Partial<Hardware> = {}): Partial<Hardware> {
  return { id, name, siteId: SITE, organizationId: ORG, online: false, exhibitId: null, updatedAt: '2026-03-14T16:05:09.000Z', ...overrides };
}

type Call = { method: string; path: string; query: URLSearchParams; body: unknown };

/** Answers the tab's calls from a small world, applying hardware PUTs to it. */
function serve(site: Partial<Hardware>[]) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    const call = { method: init?.method ?? 'GET', path: url.pathname.replace('/api/v1', ''), query: url.searchParams, body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    const respond = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    if (call.path === '/hardware-mgmt/hardware/' && url.searchParams.get('exhibitId')) return respond({ hardware: site.filter((h) => h.exhibitId === EXHIBIT) });
    if (call.path === '/hardware-mgmt/hardware/' && url.searchParams.get('siteId')) return respond({ hardware: site });
    const put = /^\/hardware-mgmt\/hardware\/([^/]+)$/.exec(call.path);
    if (put && call.method === 'PUT') {
      const h = site.find((x) => x.id === put[1])!;
      h.exhibitId = (call.body as { exhibitId: string | null }).exhibitId;
      return respond(h);
    }
    if (call.path === `/exhibit-management/exhibit/${EXHIBIT}` && call.method === 'PUT') return respond({ ...exhibit('DEVELOPER'), ...(call.body as object) });
    return new Response(JSON.stringify({ response: 'NotFound', code: 'NotFound', message: 'x' }), { status: 404 });
  });
  return calls;
}

function renderTab(e: Exhibit) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <ExhibitHardwareTab exhibit={e} />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ExhibitHardwareTab', () => {
  it('validates the MQTT IP Address and enables Save only when changed and valid', async () => {
    const calls = serve([]);
    renderTab(exhibit('DEVELOPER'));
    const input = screen.getByLabelText('MQTT IP Address');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(input).toHaveValue('10.0.0.1:1883');
    expect(save).toBeDisabled();

    await userEvent.clear(input);
    await userEvent.type(input, '10.0.0.256:1883');
    expect(screen.getByText(MESSAGE)).toBeInTheDocument();
    expect(save).toBeDisabled();
    await userEvent.clear(input);
    await userEvent.type(input, '10.0.0.2:70000');
    expect(screen.getByText(MESSAGE)).toBeInTheDocument();
    await userEvent.clear(input);
    expect(screen.queryByText(MESSAGE)).not.toBeInTheDocument();
    expect(save).toBeEnabled();
    await userEvent.type(input, '{{ip}:0');
    expect(input).toHaveValue('{ip}:0');
    expect(save).toBeEnabled();
    await userEvent.clear(input);
    await userEvent.type(input, '192.168.1.20:1883');
    await userEvent.click(save);
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ mqttPath: '192.168.1.20:1883' }));
  });

  it('keeps Save disabled and hides Connect hardware for a viewer', () => {
    serve([]);
    renderTab(exhibit('VIEWER'));
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.getByLabelText('MQTT IP Address')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Connect hardware' })).not.toBeInTheDocument();
  });

  it('shows the connected hardware as cards linking to their overview, or the empty text', async () => {
    serve([hardware(HW1, 'Board A', { exhibitId: EXHIBIT, online: true }), hardware(HW2, 'Board B')]);
    renderTab(exhibit('VIEWER'));
    const link = await screen.findByRole('link', { name: 'Board A' });
    expect(link).toHaveAttribute('href', `/organization/${ORG}/site/${SITE}/hardware/${HW1}/overview`);
    const card = screen.getByTestId('connected-hardware');
    expect(within(card).getByText('Online')).toBeInTheDocument();
    expect(within(card).getByText(/Last updated \d\d\/\d\d\/2026, \d{1,2}:\d\d:\d\d (am|pm)/)).toBeInTheDocument();
    expect(screen.queryByText('Board B')).not.toBeInTheDocument();
  });

  it('says when no hardware is connected', async () => {
    serve([hardware(HW2, 'Board B')]);
    renderTab(exhibit('DEVELOPER'));
    expect(await screen.findByText('No hardware is connected to this exhibit.')).toBeInTheDocument();
  });

  it('enables Update in Connect to Hardware only when the selection changed, then connects and disconnects', async () => {
    const site = [hardware(HW1, 'Board A', { exhibitId: EXHIBIT, online: true }), hardware(HW2, 'Board B')];
    const calls = serve(site);
    renderTab(exhibit('DEVELOPER'));
    await screen.findByRole('link', { name: 'Board A' });
    await userEvent.click(screen.getByRole('button', { name: 'Connect hardware' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect to Hardware' });
    const a = await within(dialog).findByRole('checkbox', { name: 'Board A' });
    const b = within(dialog).getByRole('checkbox', { name: 'Board B' });
    const update = within(dialog).getByRole('button', { name: 'Update' });
    expect(a).toBeChecked();
    expect(b).not.toBeChecked();
    expect(within(dialog).getByText('Online')).toBeInTheDocument();
    expect(within(dialog).getByText('Offline')).toBeInTheDocument();
    expect(update).toBeDisabled();

    await userEvent.click(b);
    expect(update).toBeEnabled();
    await userEvent.click(b);
    expect(update).toBeDisabled();

    await userEvent.click(a);
    await userEvent.click(b);
    expect(update).toBeEnabled();
    await userEvent.click(update);
    expect(await screen.findByRole('link', { name: 'Board B' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Board A' })).not.toBeInTheDocument());
    const puts = calls.filter((c) => c.method === 'PUT').map((c) => [c.path, c.body]);
    expect(puts).toEqual([
      [`/hardware-mgmt/hardware/${HW2}`, { exhibitId: EXHIBIT }],
      [`/hardware-mgmt/hardware/${HW1}`, { exhibitId: null }],
    ]);
  });

  it('says when the site has no hardware', async () => {
    serve([]);
    renderTab(exhibit('MANAGER'));
    await userEvent.click(screen.getByRole('button', { name: 'Connect hardware' }));
    expect(await screen.findByText('No hardware available.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update' })).toBeDisabled();
  });
});
