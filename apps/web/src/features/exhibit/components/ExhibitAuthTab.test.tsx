import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Token } from '@plinth/shared';
import { EXHIBIT, exhibitBody, json, renderWith, serve } from '../test/fixtures';
import { EXHIBIT_TOKEN_WARNING, ExhibitAuthTab } from './ExhibitAuthTab';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A token store answering the auth tab's calls as the server does. */
function serveTokens(initial: Token[]) {
  const tokens = [...initial];
  const calls = serve((call) => {
    if (call.method === 'GET' && call.path === `/auth/exhibit/${EXHIBIT}`) return json({ tokens });
    if (call.method === 'POST' && call.path === '/auth/exhibit') {
      const { name } = call.body as { name: string };
      const token = { id: `00000000-0000-4000-8000-00000000010${tokens.length}`, name, createdAt: '2026-03-04T05:06:07.000Z' };
      tokens.push(token);
      return json({ ...token, token: 'secret-token-value' });
    }
    if (call.method === 'DELETE') {
      const id = call.path.split('/').pop();
      tokens.splice(
        tokens.findIndex((t) => t.id === id),
        1,
      );
      return json({ ok: true });
    }
    return undefined;
  });
  return calls;
}

describe('ExhibitAuthTab', () => {
  it('creates the first token by itself, named after the exhibit, and shows it once with Copy / Copied', async () => {
    const calls = serveTokens([]);
    const user = userEvent.setup();
    renderWith(<ExhibitAuthTab exhibit={exhibitBody({ role: 'DEVELOPER' })} />);
    expect(await screen.findByText(EXHIBIT_TOKEN_WARNING)).toBeInTheDocument();
    expect(screen.getByLabelText('New exhibit token')).toHaveTextContent('secret-token-value');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([expect.objectContaining({ body: { name: 'Star Dome', exhibitId: EXHIBIT } })]);
    const row = await screen.findByRole('row', { name: /Star Dome/ });
    expect(within(row).getByText('2026-03-04')).toBeInTheDocument();
    const alert = screen.getByText(EXHIBIT_TOKEN_WARNING).closest('div[role="alert"]') as HTMLElement;
    await user.click(within(alert).getByRole('button', { name: 'Copy' }));
    expect(await within(alert).findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe('secret-token-value');
    // A developer may not delete tokens.
    expect(screen.queryByRole('button', { name: /Delete token/ })).not.toBeInTheDocument();
  });

  it('creates nothing when tokens exist; managers delete them after confirming', async () => {
    const calls = serveTokens([{ id: '00000000-0000-4000-8000-000000000201', name: 'Kiosk PC', createdAt: '2026-01-02T03:04:05.000Z' }]);
    const user = userEvent.setup();
    renderWith(<ExhibitAuthTab exhibit={exhibitBody({ role: 'MANAGER' })} />);
    expect(await screen.findByText('Kiosk PC')).toBeInTheDocument();
    expect(screen.getByText('2026-01-02')).toBeInTheDocument();
    expect(screen.getByLabelText('Exhibit ID')).toHaveTextContent(EXHIBIT);
    expect(screen.queryByText(EXHIBIT_TOKEN_WARNING)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete token Kiosk PC' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Kiosk PC')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/auth/exhibit/delete-token/00000000-0000-4000-8000-000000000201');
  });

  it('creates a named token on request and shows its value', async () => {
    serveTokens([{ id: '00000000-0000-4000-8000-000000000201', name: 'Kiosk PC', createdAt: '2026-01-02T03:04:05.000Z' }]);
    const user = userEvent.setup();
    renderWith(<ExhibitAuthTab exhibit={exhibitBody({ role: 'DEVELOPER' })} />);
    await user.click(await screen.findByRole('button', { name: 'Create new token' }));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Backup PC{Enter}');
    expect(await screen.findByText(EXHIBIT_TOKEN_WARNING)).toBeInTheDocument();
    expect(await screen.findByText('Backup PC')).toBeInTheDocument();
  });
});
