import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { CurrentUser, Exhibit, Hardware, OrganizationSummary, SiteSummary } from '@plinth/shared';
import { queryKeys } from '../../../lib/query-keys';
import { filterHomeData, visibleCategories, type HomeData } from '../search';
import { HomePage } from './HomePage';
import { ORGANIZATION_CLOSED_HINT } from './OrganizationCard';

const ids = {
  harbor: '00000000-0000-4000-8000-000000000001',
  civic: '00000000-0000-4000-8000-000000000002',
  eastWing: '00000000-0000-4000-8000-000000000011',
  planetarium: '00000000-0000-4000-8000-000000000012',
  tidePool: '00000000-0000-4000-8000-000000000021',
  starDome: '00000000-0000-4000-8000-000000000022',
  relay: '00000000-0000-4000-8000-000000000031',
};
const created = '2026-11-01T00:00:00.000Z';

const organization = (id: string, name: string, role: OrganizationSummary['role']): OrganizationSummary => ({
  id,
  name,
  role,
  isAdmin: role === 'manager',
  canCreate: role === 'manager',
  createdAt: created,
});
const site = (id: string, name: string, org: OrganizationSummary): SiteSummary => ({
  id,
  name,
  organizationId: org.id,
  organizationName: org.name,
  role: 'viewer',
  canCreate: false,
  createdAt: created,
});
const exhibit = (id: string, name: string, at: SiteSummary, online: boolean): Exhibit => ({
  id,
  name,
  siteId: at.id,
  siteName: at.name,
  organizationId: at.organizationId,
  organizationName: at.organizationName,
  mqttPath: '',
  leaderId: null,
  leader: null,
  manifestLocked: false,
  online,
  opMode: online ? 'On' : 'Off',
  op_mode: online,
  lastOnlineChange: new Date(Date.now() - 2 * 3600_000).toISOString(),
  followers: [],
  role: 'VIEWER',
  createdAt: created,
  updatedAt: created,
});
const hardware = (id: string, name: string, at: SiteSummary): Hardware => ({
  id,
  name,
  siteId: at.id,
  siteName: at.name,
  organizationId: at.organizationId,
  organizationName: at.organizationName,
  exhibitId: null,
  exhibitName: null,
  online: true,
  connected: false,
  controlDebug: false,
  ip: null,
  mac: null,
  plinth_fw: null,
  user_fw: null,
  numPeripherals: 0,
  voltage: null,
  temp: null,
  uptime: null,
  exhibitState: null,
  exhibitIP: null,
  peripherals: [],
  firmware: null,
  role: 'VIEWER',
  createdAt: created,
  updatedAt: created,
});

const harbor = organization(ids.harbor, 'Harbor Museum', 'manager');
const civic = organization(ids.civic, 'Civic Science Center', null);
const eastWing = site(ids.eastWing, 'East Wing', harbor);
const planetarium = site(ids.planetarium, 'Planetarium', civic);
const fullData: HomeData = {
  organizations: [harbor, civic],
  sites: [eastWing, planetarium],
  exhibits: [exhibit(ids.tidePool, 'Tide Pool', eastWing, true), exhibit(ids.starDome, 'Star Dome', planetarium, false)],
  hardware: [hardware(ids.relay, 'Relay Board', eastWing)],
};
const me: CurrentUser = {
  id: '00000000-0000-4000-8000-0000000000aa',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  profile_image: null,
  isPlatformAdmin: false,
};

/** Renders home with `data` read; `exhibitsRead: false` leaves the exhibits to the fetch the page makes. */
function renderHome(data: HomeData, canCreate = false, { exhibitsRead = true } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(queryKeys.me, me);
  client.setQueryData(queryKeys.organizations, { organizations: data.organizations, canCreate });
  client.setQueryData(queryKeys.sites, { sites: data.sites });
  if (exhibitsRead) client.setQueryData(queryKeys.exhibits, { exhibits: data.exhibits });
  client.setQueryData(queryKeys.hardwareBySites(data.sites.map((s) => s.id)), { hardware: data.hardware });
  return render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <HomePage />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const tabNames = () => screen.getAllByRole('tab').map((tab) => tab.textContent?.replace(/\d+$/, ''));
const search = () => screen.getByPlaceholderText('Search for an organization, site, exhibit, or hardware');

describe('filterHomeData', () => {
  it('matches names case-insensitively', () => {
    const result = filterHomeData(fullData, 'tIDE');
    expect(result.exhibits.map((e) => e.name)).toEqual(['Tide Pool']);
    expect(result.sites).toEqual([]);
  });
  it('matches exhibits and hardware by their site or organization name, but sites only by their own', () => {
    const bySite = filterHomeData(fullData, 'east wing');
    expect(bySite.exhibits.map((e) => e.name)).toEqual(['Tide Pool']);
    expect(bySite.hardware.map((h) => h.name)).toEqual(['Relay Board']);
    expect(bySite.sites.map((s) => s.name)).toEqual(['East Wing']);
    const byOrganization = filterHomeData(fullData, 'CIVIC');
    expect(byOrganization.exhibits.map((e) => e.name)).toEqual(['Star Dome']);
    expect(byOrganization.sites).toEqual([]);
    expect(byOrganization.organizations.map((o) => o.name)).toEqual(['Civic Science Center']);
  });
  it('keeps everything for a blank query', () => {
    expect(filterHomeData(fullData, '   ')).toBe(fullData);
  });
  it('hides empty categories unless a search is active', () => {
    const noHardware = { ...fullData, hardware: [] };
    expect(visibleCategories(noHardware, false)).toEqual(['exhibits', 'sites', 'organizations']);
    expect(visibleCategories(filterHomeData(noHardware, 'zzz'), true)).toEqual([
      'exhibits',
      'hardware',
      'sites',
      'organizations',
    ]);
  });
});

describe('HomePage', () => {
  it('greets the user and shows only the non-empty category tabs', () => {
    renderHome({ ...fullData, hardware: [] });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^Good (Morning|Afternoon|Evening), Ada$/);
    expect(tabNames()).toEqual(['Exhibits', 'Sites', 'Organizations']);
    expect(screen.getByText('Tide Pool')).toBeInTheDocument();
    expect(screen.getByText('Online for 2 hours')).toBeInTheDocument();
    expect(screen.getByText('Last online 2 hours ago')).toBeInTheDocument();
  });

  it('filters case-insensitively, finds an exhibit by its site or organization, and Escape clears the search', async () => {
    const user = userEvent.setup();
    renderHome(fullData);
    await user.type(search(), 'PLANETARIUM');
    expect(screen.getByText('Star Dome')).toBeInTheDocument();
    expect(screen.queryByText('Tide Pool')).not.toBeInTheDocument();

    await user.clear(search());
    await user.type(search(), 'harbor');
    expect(screen.getByText('Tide Pool')).toBeInTheDocument();
    expect(screen.queryByText('Star Dome')).not.toBeInTheDocument();

    await user.keyboard('{Escape}');
    expect(search()).toHaveValue('');
    expect(screen.getByText('Tide Pool')).toBeInTheDocument();
    expect(screen.getByText('Star Dome')).toBeInTheDocument();
  });

  it('shows every category tab while searching, with the no-match text', async () => {
    const user = userEvent.setup();
    renderHome({ ...fullData, hardware: [] });
    await user.type(search(), 'nothing like this');
    expect(tabNames()).toEqual(['Exhibits', 'Hardware', 'Sites', 'Organizations']);
    expect(screen.getByText('No exhibits match the search criteria.')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: /Hardware/ }));
    expect(screen.getByText('No hardware matches the search criteria.')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.click(search());
    await user.keyboard('{Escape}');
    expect(tabNames()).toEqual(['Exhibits', 'Sites', 'Organizations']);
  });

  it('links cards to their screens and leaves an organization without a role unclickable', async () => {
    const user = userEvent.setup();
    renderHome(fullData);
    expect(screen.getByText('Tide Pool').closest('a')).toHaveAttribute(
      'href',
      `/organization/${ids.harbor}/site/${ids.eastWing}/exhibits/${ids.tidePool}/overview`,
    );
    await user.click(screen.getByRole('tab', { name: /Organizations/ }));
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByText('Harbor Museum').closest('a')).toHaveAttribute(
      'href',
      `/organization/${ids.harbor}/sites`,
    );
    expect(within(panel).getByText('Civic Science Center').closest('a')).toBeNull();
    // The card that does not open says why; the one that opens needs no hint.
    const closed = within(panel).getByText('Civic Science Center').closest('[data-clickable]');
    expect(closed).toHaveTextContent(ORGANIZATION_CLOSED_HINT);
    expect(within(panel).getByText('Harbor Museum').closest('a')).not.toHaveTextContent(ORGANIZATION_CLOSED_HINT);
  });

  it('offers the search box while the lists load, and filters them by what was typed once they come', async () => {
    const user = userEvent.setup();
    let answer!: (response: Response) => void;
    const fetching = vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    try {
      renderHome(fullData, false, { exhibitsRead: false });
      // The exhibits are still on their way: cards are placeholders, the search box takes keys.
      expect(screen.getByLabelText('Loading')).toBeInTheDocument();
      expect(screen.queryAllByRole('tab')).toEqual([]);
      await user.type(search(), 'star');
      expect(search()).toHaveValue('star');
      answer(new Response(JSON.stringify({ exhibits: fullData.exhibits }), { status: 200, headers: { 'content-type': 'application/json' } }));
      expect(await screen.findByText('Star Dome')).toBeInTheDocument();
      expect(screen.queryByText('Tide Pool')).toBeNull();
      expect(screen.queryByLabelText('Loading')).toBeNull();
    } finally {
      fetching.mockRestore();
    }
  });

  it('welcomes a user with nothing to see', () => {
    renderHome({ organizations: [], sites: [], exhibits: [], hardware: [] });
    expect(screen.getByText(/You seem to be new here!/)).toHaveTextContent(
      'You seem to be new here!Please make sure to receive an invitation to access more information.',
    );
    expect(screen.queryByRole('button', { name: 'Create Organization' })).not.toBeInTheDocument();
  });

  it('invites a user who may create organizations to create one', () => {
    renderHome({ organizations: [], sites: [], exhibits: [], hardware: [] }, true);
    expect(screen.getByText('Create an organization to get started.')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Create Organization' })).toHaveLength(1);
  });
});
