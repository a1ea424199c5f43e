import { useMutation } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Token } from '@plinth/shared';
import { renderWithClient } from '../test/mutation-harness';
import { TokenPanel, type NewToken, type TokenPanelTexts } from './TokenPanel';

const OWNER = '00000000-0000-4000-8000-0000000000c1';
const WARNING = 'Save this token now.';

const texts: TokenPanelTexts = {
  idTitle: 'Thing ID',
  newTokenTitle: (name) => `Token ${name}`,
  newTokenLabel: 'New thing token',
  warning: WARNING,
  tableLabel: 'Thing tokens',
  createFailed: 'Could not create a thing token.',
  deleteMessage: (name) => `Delete the token ${name}?`,
  ownerKind: 'thing',
};

type Options = {
  initial?: Token[];
  canCreate?: boolean;
  canDelete?: boolean;
  isError?: boolean;
  texts?: TokenPanelTexts;
  failCreate?: Error;
};

/**
 * The panel over an in-memory token list that its create and delete calls change, as the server
 * would; like the screens' mutations, they read the list again when they succeed.
 */
function renderPanel({ initial = [], canCreate = true, canDelete = true, isError = false, failCreate, ...rest }: Options = {}) {
  const created: string[] = [];
  const deleted: string[] = [];
  let store = [...initial];
  let counter = 0;
  const createToken = async (name: string): Promise<NewToken> => {
    if (failCreate) throw failCreate;
    created.push(name);
    counter += 1;
    const token = { id: `t-${counter}`, name, createdAt: '2026-03-04T05:06:07.000Z' };
    store = [...store, token];
    return { ...token, token: `secret-${counter}` };
  };
  const deleteToken = async (id: string) => {
    deleted.push(id);
    store = store.filter((t) => t.id !== id);
  };

  function Harness() {
    const [tokens, setTokens] = useState<Token[] | undefined>(isError ? undefined : initial);
    const create = useMutation({ mutationFn: (name: string) => createToken(name), onSuccess: () => setTokens(store) });
    const remove = useMutation({ mutationFn: (id: string) => deleteToken(id), onSuccess: () => setTokens(store) });
    return (
      <TokenPanel
        ownerId={OWNER}
        ownerName="Big Board"
        tokens={tokens}
        isLoading={false}
        isError={isError}
        canCreate={canCreate}
        canDelete={canDelete}
        create={create}
        remove={remove}
        texts={rest.texts ?? texts}
      />
    );
  }

  renderWithClient(<Harness />);
  return { created, deleted };
}

afterEach(() => vi.restoreAllMocks());

describe('TokenPanel', () => {
  it('creates the first token once, named after the owner, and shows its value with Copy / Copied', async () => {
    const user = userEvent.setup();
    const { created } = renderPanel();
    expect(await screen.findByText(WARNING)).toBeInTheDocument();
    expect(screen.getByLabelText('New thing token')).toHaveTextContent('secret-1');
    expect(screen.getByLabelText('Thing ID')).toHaveTextContent(OWNER);
    expect(await screen.findByRole('row', { name: /Big Board/ })).toHaveTextContent('2026-03-04');
    expect(created).toEqual(['Big Board']);
    const alert = screen.getByText(WARNING).closest('div[role="alert"]') as HTMLElement;
    await user.click(within(alert).getByRole('button', { name: 'Copy' }));
    expect(await within(alert).findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe('secret-1');
  });

  it('does not create another token after the last one is deleted, and drops the shown value of a deleted token', async () => {
    const user = userEvent.setup();
    const { created, deleted } = renderPanel();
    await screen.findByText(WARNING);
    await user.click(await screen.findByRole('button', { name: 'Delete token Big Board' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Delete the token Big Board?');
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /Big Board/ })).not.toBeInTheDocument());
    expect(deleted).toEqual(['t-1']);
    expect(screen.queryByText(WARNING)).not.toBeInTheDocument();
    expect(created).toEqual(['Big Board']);
  });

  it('creates nothing by itself when tokens exist', () => {
    const existing = { id: 't-0', name: 'Kiosk PC', createdAt: '2026-01-02T03:04:05.000Z' };
    const first = renderPanel({ initial: [existing], canDelete: false });
    expect(screen.getByRole('row', { name: /Kiosk PC/ })).toHaveTextContent('2026-01-02');
    expect(screen.queryByRole('button', { name: /Delete token/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create new token' })).toBeInTheDocument();
    expect(first.created).toEqual([]);
  });

  it('offers no Create new token and creates nothing without the right', () => {
    const { created } = renderPanel({ canCreate: false });
    expect(screen.getByRole('table', { name: 'Thing tokens' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create new token' })).not.toBeInTheDocument();
    expect(created).toEqual([]);
  });

  it('creates a named token on request and shows its value', async () => {
    const user = userEvent.setup();
    const { created } = renderPanel({ initial: [{ id: 't-0', name: 'Kiosk PC', createdAt: '2026-01-02T03:04:05.000Z' }] });
    await user.click(screen.getByRole('button', { name: 'Create new token' }));
    const name = within(await screen.findByRole('dialog')).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Big Board');
    await user.clear(name);
    await user.type(name, 'Backup PC{Enter}');
    expect(await screen.findByText(WARNING)).toBeInTheDocument();
    expect(screen.getByText('Token Backup PC')).toBeInTheDocument();
    expect(await screen.findByRole('row', { name: /Backup PC/ })).toBeInTheDocument();
    expect(created).toEqual(['Backup PC']);
  });

  it('names the Copy buttons and uses the delete labels and the empty text when given', async () => {
    const user = userEvent.setup();
    const named: TokenPanelTexts = {
      ...texts,
      copyNames: { id: 'thing ID', token: 'thing token' },
      empty: 'No tokens yet.',
      loadFailed: 'Could not load the tokens.',
      deleteConfirmLabel: 'Delete',
      deleteCancelLabel: 'Cancel',
    };
    renderPanel({ texts: named, initial: [{ id: 't-0', name: 'Kiosk PC', createdAt: '2026-01-02T03:04:05.000Z' }] });
    expect(screen.getByRole('button', { name: 'Copy thing ID' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete token Kiosk PC' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No tokens yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows the load failure text only when given', () => {
    renderPanel({ isError: true, texts: { ...texts, loadFailed: 'Could not load the tokens.' } });
    expect(screen.getByText('Could not load the tokens.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows why the first token could not be created', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderPanel({ failCreate: new Error('') });
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not create a thing token.');
    expect(console.error).toHaveBeenCalledWith('Could not create the first thing token', expect.any(Error));
  });
});
