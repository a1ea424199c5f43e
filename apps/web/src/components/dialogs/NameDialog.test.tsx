import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MutationHarness, renderWithClient } from '../../test/mutation-harness';
import { NameDialog, type NameDialogProps } from './NameDialog';

type Props = Omit<NameDialogProps, 'onSubmit' | 'mutation'> & { onSubmit: (name: string) => Promise<unknown> };

/** The dialog over a real mutation running `onSubmit`, as the screens give it one. */
function renderDialog({ onSubmit, ...props }: Props) {
  return renderWithClient(
    <MutationHarness fn={onSubmit}>{(mutation) => <NameDialog {...props} onSubmit={mutation.mutateAsync} mutation={mutation} />}</MutationHarness>,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('NameDialog', () => {
  it('keeps Create disabled while the name is empty and confirms with Enter', async () => {
    const onSubmit = vi.fn(async () => undefined);
    const onClose = vi.fn();
    renderDialog({ opened: true, onClose, title: 'Create Site', label: 'Name', confirmLabel: 'Create', onSubmit });

    const create = screen.getByRole('button', { name: 'Create' });
    expect(create).toBeDisabled();
    const input = screen.getByLabelText('Name');
    await userEvent.type(input, '   ');
    expect(create).toBeDisabled();

    await userEvent.clear(input);
    await userEvent.type(input, '  Main Hall {Enter}');
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith('Main Hall'));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it('keeps Save disabled while the edited name is unchanged', async () => {
    renderDialog({
      opened: true,
      onClose: () => undefined,
      title: 'Edit organization name',
      label: 'Name',
      initialValue: 'Acme',
      confirmLabel: 'Save',
      requireChange: true,
      onSubmit: async () => undefined,
    });
    const save = screen.getByRole('button', { name: 'Save' });
    const input = screen.getByLabelText('Name');
    expect(input).toHaveValue('Acme');
    expect(save).toBeDisabled();

    await userEvent.type(input, 'X');
    expect(save).toBeEnabled();
    await userEvent.type(input, '{Backspace}');
    expect(save).toBeDisabled();
  });

  it('closes on Escape', async () => {
    const onClose = vi.fn();
    renderDialog({ opened: true, onClose, title: 'Create Site', label: 'Name', confirmLabel: 'Create', onSubmit: async () => undefined });
    await userEvent.click(screen.getByLabelText('Name'));
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });

  it('shows the error and ignores a second click within one second', async () => {
    let now = 1_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const onSubmit = vi.fn(async () => {
      throw new Error('Site name taken');
    });
    renderDialog({ opened: true, onClose: () => undefined, title: 'Create Site', label: 'Name', confirmLabel: 'Create', onSubmit });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Lobby' } });

    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Site name taken');
    expect(onSubmit).toHaveBeenCalledTimes(1);

    now += 500;
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);

    now += 600;
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(2));
  });

  it('shows the fallback text when the error has no message', async () => {
    renderDialog({
      opened: true,
      onClose: () => undefined,
      title: 'Create Hardware',
      label: 'Name',
      confirmLabel: 'Create',
      errorFallback: 'Error: Could not create Hardware',
      onSubmit: () => Promise.reject(new Error('')),
    });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Board 1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Could not create Hardware');
  });
});
