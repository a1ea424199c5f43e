import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MutationHarness, renderWithClient } from '../../test/mutation-harness';
import { TypeToDeleteDialog, type TypeToDeleteDialogProps } from './TypeToDeleteDialog';

type Props = Omit<TypeToDeleteDialogProps, 'onConfirm' | 'mutation'> & { onConfirm: () => Promise<unknown> };

/** The dialog over a real mutation running `onConfirm`, as the screens give it one. */
function renderDialog({ onConfirm, ...props }: Props) {
  return renderWithClient(
    <MutationHarness fn={onConfirm}>
      {(mutation) => <TypeToDeleteDialog {...props} onConfirm={() => mutation.mutateAsync(undefined)} mutation={mutation} />}
    </MutationHarness>,
  );
}

describe('TypeToDeleteDialog', () => {
  it('enables Delete only when the exact name is typed', async () => {
    const onConfirm = vi.fn(async () => undefined);
    const onClose = vi.fn();
    renderDialog({ opened: true, onClose, itemType: 'site', itemName: 'Main Hall', onConfirm });
    const del = screen.getByRole('button', { name: 'Delete' });
    const input = screen.getByLabelText('Type Main Hall to confirm');
    expect(del).toBeDisabled();

    await userEvent.type(input, 'main hall');
    expect(del).toBeDisabled();
    await userEvent.clear(input);
    await userEvent.type(input, 'Main Hall ');
    expect(del).toBeDisabled();
    await userEvent.type(input, '{Backspace}');
    expect(del).toBeEnabled();

    await userEvent.click(del);
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('shows the error of a refused deletion', async () => {
    renderDialog({
      opened: true,
      onClose: () => undefined,
      itemType: 'organization',
      itemName: 'Acme',
      onConfirm: () => Promise.reject(new Error('You do not have permission to do this.')),
    });
    await userEvent.type(screen.getByLabelText('Type Acme to confirm'), 'Acme{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have permission to do this.');
  });
});
