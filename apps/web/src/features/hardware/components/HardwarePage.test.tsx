import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Exhibit, Hardware, Token } from '@plinth/shared';
import { EXHIBIT, FakeRealtime, HW, HW2, json, makeHardware, ORG, peripheral, prop, renderWithProviders, serve, SITE, type Call } from '../test/support';
import { TOKEN_WARNING } from './HardwareAuthTab';
import { HardwarePage } from './HardwarePage';

const ROUTE = '/organization/:orgId/site/:siteId/hardware/:hardwareId/:hardwareTab';
const at = (tab: string, id = HW) => `/organization/${ORG}/site/${SITE}/hardware/${id}/${tab}`;

type World = { hardware: Hardware; others: Hardware[]; exhibits: Partial<Exhibit>[]; tokens: Token[]; loadStatus: number };

function world(overrides: Partial<Hardware> = {}): World {
  return {
    hardware: makeHardware(overrides),
    others: [makeHardware({ id: HW2, name: 'Another Board', online: false, controlDebug: false })],
    exhibits: [],
    tokens: [{ id: 't1', name: 'first', createdAt: '2026-01-05T08:00:00.000Z' }],
    loadStatus: 200,
  };
}

/** Answers the hardware screen's calls from the world, applying PUTs to it. */
function serveWorld(w: World): Call[] {
  return serve((call) => {
    if (call.path === `/hardware-mgmt/hardware/${HW}` && call.method === 'GET') {
      return w.loadStatus === 200 ? json(w.hardware) : json({ response: 'x', code: 'x', message: 'x' }, w.loadStatus);
    }
    if (call.path === `/hardware-mgmt/hardware/${HW}` && call.method === 'PUT') {
      const body = call.body as Partial<Hardware>;
      const exhibit = w.exhibits.find((e) => e.id === body.exhibitId);
      w.hardware = { ...w.hardware, ...body, ...(body.exhibitId !== undefined ? { exhibitName: exhibit?.name ?? null } : {}) };
      return json(w.hardware);
    }
    if (call.path === `/hardware-mgmt/hardware/${HW}` && call.method === 'DELETE') return json({ ok: true });
    if (call.path === '/hardware-mgmt/hardware/') return json({ hardware: [w.hardware, ...w.others] });
    if (call.path === '/exhibit-management/exhibit/by-site-ids/') return json({ exhibits: w.exhibits });
    if (call.path === `/auth/hardware/${HW}`) return json({ tokens: w.tokens });
    if (call.path === '/auth/hardware' && call.method === 'POST') {
      const token = { id: 't-new', name: (call.body as { name: string }).name, createdAt: '2026-03-01T00:00:00.000Z' };
      w.tokens = [...w.tokens, token];
      return json({ ...token, token: 'secret-token-value' });
    }
    if (call.path === '/hardware-mgmt/firmware') {
      return json({ plinthFirmware: [], userFirmware: [], plinthFirmwareHistory: [], userFirmwareHistory: [], currentPlinthVersion: null, currentUserVersion: null });
    }
    return undefined;
  });
}

function renderPage(path: string, realtime = new FakeRealtime()) {
  return renderWithProviders(<HardwarePage />, { path, routePath: ROUTE, realtime });
}

const exhibit = (id: string, name: string, online: boolean): Partial<Exhibit> => ({ id, name, online, siteId: SITE, organizationId: ORG });

beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('HardwarePage', () => {
  it('shows a viewer the tabs without Auth, no edit or delete, and a disabled debug toggle', async () => {
    const w = world({ role: 'VIEWER', ip: null, exhibitState: '' });
    serveWorld(w);
    renderPage(at('overview'));
    expect(await screen.findByRole('heading', { name: 'Board A' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Overview', 'Peripherals', 'Logs', 'Reports', 'Firmware']);
    expect(screen.queryByRole('button', { name: 'Edit hardware name' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete hardware' })).not.toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Debug Mode' })).toBeDisabled();
    expect(screen.getByTestId('field-IP')).toHaveTextContent('-');
    expect(screen.getByTestId('field-Exhibit State')).toHaveTextContent('-');
    expect(screen.getByTestId('field-MAC')).toHaveTextContent('AA:BB:CC:DD:EE:FF');
    expect(screen.getByTestId('field-Uptime (in min.)')).toHaveTextContent('12');
    expect(screen.getByTestId('field-Plinth Firmware Version')).toHaveTextContent('46');
    expect(screen.queryByRole('button', { name: 'Connect to Exhibit' })).not.toBeInTheDocument();
  });

  it('sends a viewer on the auth tab to the overview, and shows the logs of this hardware on the logs tab', async () => {
    const calls = serveWorld(world({ role: 'VIEWER' }));
    renderPage(at('auth'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(at('overview')));
    await userEvent.click(screen.getByRole('tab', { name: 'Logs' }));
    expect(await screen.findByRole('button', { name: 'Fetch' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(at('logs'));
    await waitFor(() => expect(calls.some((c) => c.path === '/logging/hardware' && c.query.get('hardwareId') === HW)).toBe(true));
  });

  it('lists the site hardware with online and debug state', async () => {
    serveWorld(world({ controlDebug: true }));
    renderPage(at('overview'));
    const nav = await screen.findByRole('navigation', { name: 'Main Hall' });
    await within(nav).findByText('Another Board');
    const links = within(nav).getAllByRole('link').filter((l) => l.getAttribute('href')?.includes('/hardware/'));
    expect(links.map((l) => l.textContent)).toEqual(['Another Board', 'Board A']);
    expect(within(links[1]!).getByLabelText('Debug mode on')).toBeInTheDocument();
    expect(within(links[1]!).getByLabelText('Online')).toBeInTheDocument();
    expect(within(links[0]!).queryByLabelText('Debug mode on')).not.toBeInTheDocument();
    expect(within(links[0]!).getByLabelText('Offline')).toBeInTheDocument();
  });

  it('switches debug mode after the confirmation, and only while online', async () => {
    const w = world({ controlDebug: false });
    const calls = serveWorld(w);
    renderPage(at('overview'));
    const toggle = await screen.findByRole('switch', { name: 'Debug Mode' });
    expect(toggle).toBeEnabled();
    await userEvent.click(toggle);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('changes where this hardware is connected');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Debug Mode' })).toBeChecked());
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ controlDebug: true });
  });

  it('disables the debug toggle while the hardware is offline', async () => {
    serveWorld(world({ online: false }));
    renderPage(at('overview'));
    expect(await screen.findByRole('switch', { name: 'Debug Mode' })).toBeDisabled();
  });

  it('goes to /notfound when loading fails with anything but 403', async () => {
    const w = world();
    w.loadStatus = 500;
    serveWorld(w);
    renderPage(at('overview'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/notfound'));
  });

  it('stays on the page with a notice on 403', async () => {
    const w = world();
    w.loadStatus = 403;
    serveWorld(w);
    renderPage(at('overview'));
    expect(await screen.findByText('You do not have access to this hardware.')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(at('overview'));
  });

  it('deletes the hardware after its name is typed and goes back to the site hardware tab', async () => {
    const calls = serveWorld(world());
    renderPage(at('overview'));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete hardware' }));
    await userEvent.type(await screen.findByLabelText('Type Board A to confirm'), 'Board A{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/organization/${ORG}/site/${SITE}/hardware`));
    expect(calls.some((c) => c.method === 'DELETE' && c.path === `/hardware-mgmt/hardware/${HW}`)).toBe(true);
  });

  it('renames the hardware', async () => {
    const calls = serveWorld(world());
    renderPage(at('overview'));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit hardware name' }));
    const input = await screen.findByLabelText('Name');
    await userEvent.clear(input);
    await userEvent.type(input, 'Board Z{Enter}');
    expect(await screen.findByRole('heading', { name: 'Board Z' })).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ name: 'Board Z' });
  });

  it('connects the hardware to an exhibit of the site, which then shows as a link', async () => {
    const w = world();
    w.exhibits = [exhibit(EXHIBIT, 'Star Dome', true), exhibit('00000000-0000-4000-8000-0000000000e2', 'Aquarium', false)];
    const calls = serveWorld(w);
    renderPage(at('overview'));
    await userEvent.click(await screen.findByRole('button', { name: 'Connect to Exhibit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect to Exhibit' });
    const connect = within(dialog).getByRole('button', { name: 'Connect' });
    expect(connect).toBeDisabled();
    expect(within(dialog).getAllByRole('radio')).toHaveLength(2);
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Star Dome' }));
    await userEvent.click(connect);
    const link = await screen.findByRole('link', { name: 'Star Dome' });
    expect(link).toHaveAttribute('href', `/organization/${ORG}/site/${SITE}/exhibits/${EXHIBIT}/overview`);
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ exhibitId: EXHIBIT });
  });

  it('says when the site has no exhibits to connect', async () => {
    serveWorld(world());
    renderPage(at('overview'));
    await userEvent.click(await screen.findByRole('button', { name: 'Connect to Exhibit' }));
    expect(await screen.findByText('No exhibits available.')).toBeInTheDocument();
  });

  it('shows a connected exhibit the user may not see as plain text', async () => {
    serveWorld(world({ exhibitId: EXHIBIT, exhibitName: 'Secret Room', connected: true }));
    renderPage(at('overview'));
    expect(await screen.findByText('Secret Room')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Secret Room' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Disconnect exhibit' })).toBeInTheDocument();
  });

  it('subscribes to the hardware and applies live prop values', async () => {
    const realtime = new FakeRealtime();
    serveWorld(world({ peripherals: [peripheral('relay1', 'Relay', [prop('state', 'toggle', 0, { settable: 'true' })])] }));
    renderPage(at('peripherals'), realtime);
    const relay = await screen.findByRole('switch', { name: 'Relay state' });
    expect(relay).not.toBeChecked();
    expect(realtime.subscriptions.some((s) => s.hardwareIds?.includes(HW))).toBe(true);
    act(() => realtime.emit({ type: 'hardware.propChanged', hardwareId: HW, peripheralId: 'relay1', propType: 'toggle', propName: 'state', value: 1, periphName: 'Relay' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Relay state' })).toBeChecked());
  });

  it('creates a token on the auth tab when none exist and shows it once', async () => {
    const w = world();
    w.tokens = [];
    const calls = serveWorld(w);
    renderPage(at('auth'));
    expect(await screen.findByText(TOKEN_WARNING)).toBeInTheDocument();
    expect(screen.getByTestId('new-token')).toHaveTextContent('secret-token-value');
    expect(screen.getByRole('button', { name: 'Copy hardware token' })).toBeInTheDocument();
    expect(screen.getByText(HW)).toBeInTheDocument();
    expect(await screen.findByRole('cell', { name: '2026-03-01' })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST' && c.path === '/auth/hardware').map((c) => c.body)).toEqual([{ name: 'Board A', hardwareId: HW }]);
    // A developer may not delete tokens.
    expect(screen.queryByRole('button', { name: /Delete token/ })).not.toBeInTheDocument();
  });

  it('lets a manager delete a token', async () => {
    const calls = serveWorld(world({ role: 'MANAGER' }));
    renderPage(at('auth'));
    expect(await screen.findByRole('cell', { name: 'first' })).toBeInTheDocument();
    expect(screen.queryByText(TOKEN_WARNING)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Delete token first' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === '/auth/hardware/delete-token/t1')).toBe(true));
  });
});
