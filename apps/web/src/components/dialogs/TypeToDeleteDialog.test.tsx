import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TypeToDeleteDialog } from './TypeToDeleteDialog';

describe('TypeToDeleteDialog', () => {
  it('enables Delete only when the exact name is typed', async () => {
    const onConfirm = vi.fn(async () => undefined);
    const onClose = vi.fn();
    render(
      <MantineProvider env="test">
        <TypeToDeleteDialog opened onClose={onClose} itemType="site" itemName="Main Hall" onConfirm={onConfirm} />
      </MantineProvider>,
    );
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
    render(
      <MantineProvider env="test">
        <TypeToDeleteDialog
          opened
          onClose={() => undefined}
          itemType="organization"
          itemName="Acme"
          onConfirm={() => Promise.reject(new Error('You do not have permission to do this.'))}
        />
      </MantineProvider>,
    );
    await userEvent.type(screen.getByLabelText('Type Acme to confirm'), 'Acme{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have permission to do this.');
  });
});
