import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiKey, Organization } from '@plinth/shared';
import { renderWithClient } from '../../../test/mutation-harness';
import { OrganizationApiKeysTab } from './OrganizationApiKeysTab';

const ORG = '00000000-0000-4000-8000-00000000000a';
const SITE = '00000000-0000-4000-8000-0000000000b1';

const organization: Organization = {
  id: ORG,
  name: 'Acme Museum',
  role: 'manager',
  isAdmin: true,
  canCreate: true,
  createdAt: '',
  sites: [{ id: SITE, name: 'Main Hall', organizationId: ORG, organizationName: 'Acme Museum', role: 'manager', canCreate: true, createdAt: '' }],
  organizationsettings: [],
};

function key(values: Partial<ApiKey>): ApiKey {
  return {
    id: '00000000-0000-4000-8000-0000000000c1',
    organizationId: ORG,
    name: 'Nightly script',
    role: 'VIEWER',
    sites: null,
    expiresAt: null,
    createdBy: 'ann@example.com',
    createdAt: '2026-03-14T16:05:00Z',
    lastUsedAt: null,
    revokedAt: null,
    revokedBy: null,
    ...values,
  };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

type World = { keys: ApiKey[]; listStatus: number };

/** The server as the tab sees it: list, create (answers the value once) and revoke. */
function serve(w: World) {
  const bodies: unknown[] = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const p = new URL(input, 'http://localhost').pathname.replace('/api/v1', '');
    const method = init?.method ?? 'GET';
    if (p === `/org-management/organization/${ORG}/api-keys` && method === 'GET') {
      return w.listStatus === 200 ? json({ keys: w.keys }) : json({ response: 'x', code: 'ServiceUnavailable', message: 'The database cannot be reached.' }, w.listStatus);
    }
    if (p === `/org-management/organization/${ORG}/api-keys` && method === 'POST') {
      const body = JSON.parse(String(init?.body)) as { name: string; role: string; siteIds: string[] | null };
      bodies.push(body);
      const created = key({ id: '00000000-0000-4000-8000-0000000000c2', name: body.name, role: body.role.toUpperCase() as ApiKey['role'], sites: body.siteIds && [{ id: SITE, name: 'Main Hall' }] });
      w.keys = [created, ...w.keys];
      return json({ ...created, key: 'plk_0123456789abcdef_secret' });
    }
    if (p.startsWith('/org-management/api-keys/') && method === 'DELETE') {
      w.keys = w.keys.map((k) => (p.endsWith(k.id) ? { ...k, revokedAt: '2026-03-15T00:00:00Z', revokedBy: 'ann@example.com' } : k));
      return json(w.keys.find((k) => p.endsWith(k.id)));
    }
    return json({ response: 'NotFound', code: 'NotFound', message: 'Not found' }, 404);
  });
  return bodies;
}

function renderTab() {
  renderWithClient(<OrganizationApiKeysTab organization={organization} />);
}

beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('OrganizationApiKeysTab', () => {
  it('says when the list cannot be read, with Retry, rather than showing no keys', async () => {
    serve({ keys: [], listStatus: 503 });
    renderTab();
    expect(await screen.findByText(/The API keys of this organization cannot be shown right now/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /retry/i })).toBeInTheDocument();
    expect(screen.queryByText(/No API keys yet/)).not.toBeInTheDocument();
  });

  it('creates a key limited to a site and shows its value once, with the warning', async () => {
    const bodies = serve({ keys: [], listStatus: 200 });
    renderTab();
    expect(await screen.findByText(/No API keys yet/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create API key' }));
    const dialog = await screen.findByRole('dialog');
    const create = within(dialog).getByRole('button', { name: 'Create' });
    expect(create).toBeDisabled();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Show control');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Chosen sites' }));
    expect(create).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('textbox', { name: /Sites/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Main Hall' }));
    await waitFor(() => expect(create).toBeEnabled());
    await userEvent.click(create);

    expect(await screen.findByTestId('new-api-key')).toHaveTextContent('plk_0123456789abcdef_secret');
    expect(screen.getByText(/you will not see it again/)).toBeInTheDocument();
    expect(bodies).toEqual([{ name: 'Show control', role: 'viewer', siteIds: [SITE], expiresAt: null }]);
    const row = await screen.findByRole('row', { name: /Show control/ });
    expect(row).toHaveTextContent('Main Hall');
    expect(row).not.toHaveTextContent('plk_');
  });

  it('sets an expiry in some days, and needs a date when expiring on a date', async () => {
    const bodies = serve({ keys: [], listStatus: 200 });
    renderTab();
    await userEvent.click(await screen.findByRole('button', { name: 'Create API key' }));
    const dialog = await screen.findByRole('dialog');
    const create = within(dialog).getByRole('button', { name: 'Create' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Season pass');
    await userEvent.click(within(dialog).getByRole('textbox', { name: 'Expires' }));
    await userEvent.click(await screen.findByRole('option', { name: 'On a date…' }));
    expect(within(dialog).getByText('Expires on')).toBeInTheDocument();
    expect(create).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('textbox', { name: 'Expires' }));
    await userEvent.click(await screen.findByRole('option', { name: 'In 30 days' }));
    await waitFor(() => expect(create).toBeEnabled());
    const before = Date.now();
    await userEvent.click(create);
    await screen.findByTestId('new-api-key');
    const sent = bodies[0] as { expiresAt: string };
    const days = (new Date(sent.expiresAt).getTime() - before) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
  });

  it('revokes a key after a confirmation, and marks it revoked', async () => {
    serve({ keys: [key({ lastUsedAt: '2026-03-14T17:00:00Z' })], listStatus: 200 });
    renderTab();
    const row = await screen.findByRole('row', { name: /Nightly script/ });
    expect(row).toHaveTextContent('Whole organization');
    expect(row).toHaveTextContent('Viewer');
    expect(row).toHaveTextContent('Never');
    await userEvent.click(within(row).getByRole('button', { name: 'Revoke API key Nightly script' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Nightly script');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.getByRole('row', { name: /Nightly script/ })).toHaveTextContent('Revoked'));
    expect(screen.queryByRole('button', { name: 'Revoke API key Nightly script' })).not.toBeInTheDocument();
  });
});
