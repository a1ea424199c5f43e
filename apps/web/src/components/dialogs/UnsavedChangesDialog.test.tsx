import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { UNSAVED_CHANGES_MESSAGE, UnsavedChangesDialog } from './UnsavedChangesDialog';

describe('UnsavedChangesDialog', () => {
  it('is titled Warning and offers Cancel and Proceed', async () => {
    const onCancel = vi.fn();
    const onProceed = vi.fn();
    render(
      <MantineProvider env="test">
        <UnsavedChangesDialog opened onCancel={onCancel} onProceed={onProceed} />
      </MantineProvider>,
    );
    expect(screen.getByText('Warning')).toBeInTheDocument();
    expect(screen.getByText(UNSAVED_CHANGES_MESSAGE)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onProceed).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Proceed' }));
    await waitFor(() => expect(onProceed).toHaveBeenCalledTimes(1));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('proceeds on Enter without cancelling', async () => {
    const onCancel = vi.fn();
    const onProceed = vi.fn();
    render(
      <MantineProvider env="test">
        <UnsavedChangesDialog opened onCancel={onCancel} onProceed={onProceed} />
      </MantineProvider>,
    );
    screen.getByRole('button', { name: 'Proceed' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(onProceed).toHaveBeenCalledTimes(1));
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('cancels on Escape', async () => {
    const onCancel = vi.fn();
    const onProceed = vi.fn();
    render(
      <MantineProvider env="test">
        <UnsavedChangesDialog opened onCancel={onCancel} onProceed={onProceed} />
      </MantineProvider>,
    );
    screen.getByRole('button', { name: 'Cancel' }).focus();
    await userEvent.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onProceed).not.toHaveBeenCalled();
  });
});
