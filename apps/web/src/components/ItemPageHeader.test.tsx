import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/api-client';
import { MutationHarness, renderWithClient } from '../test/mutation-harness';
import { ItemPageHeader, type ItemPageHeaderProps } from './ItemPageHeader';

type Options = Partial<Omit<ItemPageHeaderProps, 'onRename' | 'renameMutation' | 'onDelete' | 'deleteMutation'>> & {
  rename?: (name: string) => Promise<unknown>;
  remove?: () => Promise<unknown>;
};

/** The header over real rename and delete mutations, as the item screens give it. */
function renderHeader({ rename = vi.fn(async () => undefined), remove = vi.fn(async () => undefined), ...props }: Options = {}) {
  renderWithClient(
    <MemoryRouter>
      <MutationHarness fn={rename}>
        {(renameMutation) => (
          <MutationHarness fn={() => remove()}>
            {(deleteMutation) => (
              <ItemPageHeader
                itemType="site"
                name="Main Hall"
                canEdit
                {...props}
                onRename={renameMutation.mutateAsync}
                renameMutation={renameMutation}
                onDelete={() => deleteMutation.mutateAsync(undefined)}
                deleteMutation={deleteMutation}
              />
            )}
          </MutationHarness>
        )}
      </MutationHarness>
    </MemoryRouter>,
  );
  return { rename, remove };
}

const lockedAnswer = () =>
  new ApiError(409, { response: 'x', code: 'LockedExhibits', message: 'x', details: { lockedExhibits: [{ id: 'e1', name: 'Star Dome' }] } }, 'x');

describe('ItemPageHeader', () => {
  it('shows the name as the heading under its path, a plain crumb for what the user may not open', () => {
    renderHeader({ crumbs: [{ label: 'Acme Museum', to: '/organization/o1/sites' }, { label: 'Secret Wing', to: null }] });
    expect(screen.getByRole('heading', { level: 2, name: 'Main Hall' })).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Acme Museum' })).toHaveAttribute('href', '/organization/o1/sites');
    expect(within(crumbs).queryByRole('link', { name: 'Secret Wing' })).not.toBeInTheDocument();
    expect(within(crumbs).getByText('Secret Wing')).toBeInTheDocument();
  });

  it('offers edit and delete only to those who may use them', () => {
    renderHeader({ canEdit: false, badge: <span>Online</span>, actions: <button type="button">Create Exhibit</button> });
    expect(screen.queryByRole('button', { name: 'Edit site name' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete site' })).not.toBeInTheDocument();
    expect(screen.getByText('Online')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Exhibit' })).toBeInTheDocument();
  });

  it('renames through the edit dialog, whose Save waits for a changed name', async () => {
    const user = userEvent.setup();
    const { rename } = renderHeader();
    await user.click(screen.getByRole('button', { name: 'Edit site name' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit site name' });
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Main Hall');
    expect(save).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), ' East{Enter}');
    await waitFor(() => expect(rename).toHaveBeenCalledWith('Main Hall East'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('deletes after the exact name is typed', async () => {
    const user = userEvent.setup();
    const { remove } = renderHeader();
    await user.click(screen.getByRole('button', { name: 'Delete site' }));
    await user.type(await screen.findByLabelText('Type Main Hall to confirm'), 'Main Hall{Enter}');
    await waitFor(() => expect(remove).toHaveBeenCalledTimes(1));
  });

  it('opens the locked-exhibit dialog instead of the confirmation when locked exhibits are known', async () => {
    const user = userEvent.setup();
    const { remove } = renderHeader({ lockedExhibits: [{ id: 'e1', name: 'Star Dome' }] });
    await user.click(screen.getByRole('button', { name: 'Delete site' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('This site cannot be deleted because it contains locked exhibits.');
    expect(within(dialog).getByText('Star Dome')).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox')).not.toBeInTheDocument();
    expect(remove).not.toHaveBeenCalled();
  });

  it('moves on to the locked-exhibit dialog, with the exhibits the server named, when it refuses the deletion', async () => {
    const user = userEvent.setup();
    renderHeader({ lockedExhibits: [], remove: () => Promise.reject(lockedAnswer()) });
    await user.click(screen.getByRole('button', { name: 'Delete site' }));
    await user.type(await screen.findByLabelText('Type Main Hall to confirm'), 'Main Hall{Enter}');
    expect(await screen.findByText('This site cannot be deleted because it contains locked exhibits.')).toBeInTheDocument();
    expect(screen.getByText('Star Dome')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('keeps any other refusal in the delete confirmation', async () => {
    const user = userEvent.setup();
    renderHeader({ remove: () => Promise.reject(new Error('You do not have permission to do this.')) });
    await user.click(screen.getByRole('button', { name: 'Delete site' }));
    await user.type(await screen.findByLabelText('Type Main Hall to confirm'), 'Main Hall{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have permission to do this.');
  });
});
