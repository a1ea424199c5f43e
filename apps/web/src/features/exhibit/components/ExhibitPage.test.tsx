import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Exhibit, ExhibitSetting, Role } from '@plinth/shared';
import { UNSAVED_CHANGES_MESSAGE } from '../../../components/dialogs/UnsavedChangesDialog';
import { errorBody, EXHIBIT, exhibitBody, json, manifestBody, newQueryClient, ORG, serve, setting, SITE } from '../test/fixtures';
import { ExhibitPage, OFFLINE_OP_MODE_TEXT } from './ExhibitPage';

const OTHER = '00000000-0000-4000-8000-0000000000e7';
const base = `/organization/${ORG}/site/${SITE}/exhibits`;

type World = { exhibit: Exhibit; status?: number; settings?: ExhibitSetting[] };

function serveWorld(world: World) {
  return serve((call) => {
    if (call.path === `/exhibit-management/exhibit/${EXHIBIT}` && call.method === 'GET') {
      return world.status ? errorBody(world.status === 403 ? 'Forbidden' : 'NotFound', 'x', world.status) : json(world.exhibit);
    }
    if (call.path === `/exhibit-management/exhibit/${OTHER}`) return json(exhibitBody({ id: OTHER, name: 'Aquarium' }));
    if (call.path === '/exhibit-management/exhibit/by-site-ids/') {
      return json({
        exhibits: [world.exhibit, exhibitBody({ id: OTHER, name: 'Aquarium', online: false })],
      });
    }
    if (call.path === `/org-management/organization/${ORG}`)
      return json({
        id: ORG,
        name: 'Acme Museum',
        organizationsettings: [],
        sites: [],
      });
    if (call.path === `/org-management/site/${SITE}`)
      return json({
        id: SITE,
        name: 'Main Hall',
        organizationId: ORG,
        role: 'viewer',
      });
    if (call.path.endsWith('/manifest')) {
      return json(
        manifestBody({
          settings: world.settings ?? [
            setting({
              manifestId: 'sound',
              display: 'Sound',
              type: 'Toggle',
              value: false,
            }),
          ],
        }),
      );
    }
    if (call.path === '/content/files/ls' && call.query === `?exhibitId=${EXHIBIT}&siteId=${SITE}`) {
      return json({ files: [{ name: 'intro.mp4', updated_at: '2026-01-01T00:00:00.000Z', size: 2048, organizational: false, sha256: 'ab' }], errors: [] });
    }
    if (call.path.endsWith('/opMode')) return json({ ok: true });
    if (call.path === `/exhibit-management/permission/by-exhibit-id/${EXHIBIT}`) {
      const ann = { id: '00000000-0000-4000-8000-0000000000f1', userId: '00000000-0000-4000-8000-0000000000f2', email: 'ann@example.org' };
      return json({ exhibitUsers: [{ ...ann, firstName: 'Ann', lastName: 'Lee', role: 'MANAGER', accountCreated: true }], canManage: true });
    }
    if (call.path === `/auth/exhibit/${EXHIBIT}`)
      return json({
        tokens: [
          {
            id: 't1',
            name: 'Star Dome',
            createdAt: '2026-02-03T04:05:06.000Z',
          },
        ],
      });
    return undefined;
  });
}

function Where() {
  return <div data-testid="location">{useLocation().pathname}</div>;
}

function renderAt(path: string) {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={newQueryClient()}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/organization/:orgId/site/:siteId/exhibits/:exhibitId/:exhibitTab" element={<ExhibitPage />} />
            <Route path="/organization/:orgId/site/:siteId/exhibits/:exhibitId" element={<ExhibitPage />} />
            <Route path="*" element={<div>elsewhere</div>} />
          </Routes>
          <Where />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const tabNames = () => screen.getAllByRole('tab').map((t) => t.textContent);
const location = () => screen.getByTestId('location').textContent;

beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ExhibitPage', () => {
  it.each<[Role, string[]]>([
    ['MANAGER', ['Overview', 'Controls', 'Settings', 'Hardware', 'Files', 'Logs', 'Reports', 'Scheduling', 'Users', 'Notifications', 'Auth']],
    ['DEVELOPER', ['Overview', 'Controls', 'Settings', 'Hardware', 'Files', 'Logs', 'Reports', 'Scheduling', 'Notifications', 'Auth']],
    ['VIEWER', ['Overview', 'Controls', 'Settings', 'Hardware', 'Files', 'Logs', 'Reports']],
  ])('shows a %s the tabs of its role', async (role, tabs) => {
    serveWorld({ exhibit: exhibitBody({ role }) });
    renderAt(`${base}/${EXHIBIT}/overview`);
    expect(await screen.findByRole('heading', { name: 'Star Dome' })).toBeInTheDocument();
    expect(tabNames()).toEqual(tabs);
  });

  it('sends a non-permitted, unknown or missing tab to overview', async () => {
    serveWorld({ exhibit: exhibitBody({ role: 'VIEWER' }) });
    renderAt(`${base}/${EXHIBIT}/auth`);
    await waitFor(() => expect(location()).toBe(`${base}/${EXHIBIT}/overview`));
    expect(screen.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');
  });

  it('hides edit, delete, lock and op mode controls from a viewer', async () => {
    serveWorld({
      exhibit: exhibitBody({ role: 'VIEWER', manifestLocked: true }),
    });
    renderAt(`${base}/${EXHIBIT}`);
    expect(await screen.findByRole('heading', { name: 'Star Dome' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit exhibit name' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete exhibit' })).not.toBeInTheDocument();
    expect(screen.getByText('Locked')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Operating mode' })).toBeDisabled();
    expect(screen.getByText('Online')).toBeInTheDocument();
  });

  it('goes to /forbidden on a 403', async () => {
    serveWorld({ exhibit: exhibitBody(), status: 403 });
    renderAt(`${base}/${EXHIBIT}/overview`);
    await waitFor(() => expect(location()).toBe('/forbidden'));
  });

  it('goes to /notfound when the exhibit cannot be loaded', async () => {
    serveWorld({ exhibit: exhibitBody(), status: 404 });
    renderAt(`${base}/${EXHIBIT}/overview`);
    await waitFor(() => expect(location()).toBe('/notfound'));
  });

  it('shows the breadcrumb, the left list and the users tab', async () => {
    serveWorld({ exhibit: exhibitBody() });
    renderAt(`${base}/${EXHIBIT}/users`);
    expect(await screen.findByRole('button', { name: 'ann@example.org' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add User' })).toBeDisabled();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(await within(crumbs).findByRole('link', { name: 'Acme Museum' })).toHaveAttribute('href', `/organization/${ORG}/sites`);
    expect(await within(crumbs).findByRole('link', { name: 'Main Hall' })).toHaveAttribute('href', `${base.replace('/exhibits', '')}/exhibits`);
    const nav = screen.getByRole('navigation', { name: 'Main Hall' });
    expect(await within(nav).findByRole('link', { name: /Aquarium/ })).toHaveAttribute('href', `${base}/${OTHER}/users`);
  });

  it('shows the logs of this exhibit on the logs tab and its reports on the reports tab', async () => {
    const calls = serveWorld({ exhibit: exhibitBody() });
    renderAt(`${base}/${EXHIBIT}/logs`);
    expect(await screen.findByRole('button', { name: 'Live' })).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.path === '/logging/exhibit' && c.query.includes(`exhibitId=${EXHIBIT}`))).toBe(true));
    await userEvent.click(screen.getByRole('tab', { name: 'Reports' }));
    expect(await screen.findByRole('textbox', { name: 'Interval' })).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.path === '/reporting/exhibit/report')).toBe(true));
  });

  it('asks before changing the op mode, warning that it changes the exhibit, then sends it', async () => {
    const calls = serveWorld({
      exhibit: exhibitBody({ role: 'DEVELOPER', opMode: 'On' }),
    });
    const user = userEvent.setup();
    renderAt(`${base}/${EXHIBIT}/overview`);
    await user.click(await screen.findByRole('switch', { name: 'Operating mode' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/This changes the state of the exhibit/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path.endsWith('/opMode'))?.body).toEqual({
        opMode: 'Off',
      }),
    );
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Operating mode' })).not.toBeChecked());
  });

  it('disables the op mode of an offline exhibit and says why', async () => {
    serveWorld({ exhibit: exhibitBody({ role: 'DEVELOPER', online: false }) });
    const user = userEvent.setup();
    renderAt(`${base}/${EXHIBIT}/overview`);
    const opMode = await screen.findByRole('switch', { name: 'Operating mode' });
    expect(opMode).toBeDisabled();
    await user.hover(screen.getByText('Op Mode'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent(OFFLINE_OP_MODE_TEXT);
    expect(OFFLINE_OP_MODE_TEXT).toBe('The exhibit is offline: the operating mode can be changed when it is online.');
  });

  it('shows the locked notice instead of the delete dialog for a locked exhibit', async () => {
    serveWorld({ exhibit: exhibitBody({ manifestLocked: true }) });
    const user = userEvent.setup();
    renderAt(`${base}/${EXHIBIT}/overview`);
    await user.click(await screen.findByRole('button', { name: 'Delete exhibit' }));
    expect(await screen.findByText('This exhibit cannot be deleted because it is locked.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Type Star Dome to confirm')).not.toBeInTheDocument();
  });

  it('asks before leaving the settings tab with unsaved changes, by tab or by link', async () => {
    serveWorld({ exhibit: exhibitBody() });
    const user = userEvent.setup();
    renderAt(`${base}/${EXHIBIT}/settings`);
    await user.click(await screen.findByRole('switch', { name: 'Sound' }));
    expect(screen.getByText('Modified')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Overview' }));
    expect(await screen.findByText(UNSAVED_CHANGES_MESSAGE)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByText(UNSAVED_CHANGES_MESSAGE)).not.toBeInTheDocument());
    expect(location()).toBe(`${base}/${EXHIBIT}/settings`);
    expect(screen.getByText('Modified')).toBeInTheDocument();

    await user.click(within(screen.getByRole('navigation', { name: 'Main Hall' })).getByRole('link', { name: /Aquarium/ }));
    expect(await screen.findByText(UNSAVED_CHANGES_MESSAGE)).toBeInTheDocument();
    expect(location()).toBe(`${base}/${EXHIBIT}/settings`);
    await user.click(screen.getByRole('button', { name: 'Proceed' }));
    await waitFor(() => expect(location()).toBe(`${base}/${OTHER}/settings`));
  });

  it('leaves the settings tab without asking when nothing is pending', async () => {
    serveWorld({ exhibit: exhibitBody() });
    const user = userEvent.setup();
    renderAt(`${base}/${EXHIBIT}/settings`);
    expect(await screen.findByRole('switch', { name: 'Sound' })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Overview' }));
    await waitFor(() => expect(location()).toBe(`${base}/${EXHIBIT}/overview`));
    expect(screen.queryByText(UNSAVED_CHANGES_MESSAGE)).not.toBeInTheDocument();
  });

  it('shows the files tab, and offers the same files to a FileSelection setting', async () => {
    serveWorld({ exhibit: exhibitBody(), settings: [setting({ manifestId: 'attract', display: 'Attract video', type: 'FileSelection', value: '' })] });
    const user = userEvent.setup();
    renderAt(`${base}/${EXHIBIT}/files`);
    expect(await screen.findByRole('heading', { name: 'Files (1)' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download intro.mp4' })).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    await user.click(await screen.findByRole('textbox', { name: 'Attract video' }));
    await user.click(await screen.findByRole('option', { name: 'intro.mp4' }));
    expect(screen.getByText('Modified')).toBeInTheDocument();
  });
});
