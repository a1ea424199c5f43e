import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NameDialog } from './NameDialog';

function renderUi(ui: ReactElement) {
  return render(<MantineProvider env="test">{ui}</MantineProvider>);
}

afterEach(() => vi.restoreAllMocks());

describe('NameDialog', () => {
  it('keeps Create disabled while the name is empty and confirms with Enter', async () => {
    const onSubmit = vi.fn(async () => undefined);
    const onClose = vi.fn();
    renderUi(<NameDialog opened onClose={onClose} title="Create Site" label="Name" confirmLabel="Create" onSubmit={onSubmit} />);

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
    renderUi(
      <NameDialog
        opened
        onClose={() => undefined}
        title="Edit organization name"
        label="Name"
        initialValue="Acme"
        confirmLabel="Save"
        requireChange
        onSubmit={async () => undefined}
      />,
    );
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
    renderUi(<NameDialog opened onClose={onClose} title="Create Site" label="Name" confirmLabel="Create" onSubmit={async () => undefined} />);
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
    renderUi(<NameDialog opened onClose={() => undefined} title="Create Site" label="Name" confirmLabel="Create" onSubmit={onSubmit} />);
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
    renderUi(
      <NameDialog
        opened
        onClose={() => undefined}
        title="Create Hardware"
        label="Name"
        confirmLabel="Create"
        errorFallback="Error: Could not create Hardware"
        onSubmit={() => Promise.reject(new Error(''))}
      />,
    );
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Board 1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Could not create Hardware');
  });
});
