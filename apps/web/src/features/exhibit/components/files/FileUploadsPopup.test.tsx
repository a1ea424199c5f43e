import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { FileUpload } from '../../api/upload-files';
import { FileUploadsPopup, STOP_UPLOADS_MESSAGE } from './FileUploadsPopup';

const upload = (id: number, name: string, status: FileUpload['status'], progressPercentage: number, error: string | null = null): FileUpload => ({
  id,
  name,
  status,
  progressPercentage,
  error,
});

function renderPopup(uploads: FileUpload[]) {
  const onClose = vi.fn();
  const onReload = vi.fn();
  render(
    <MantineProvider env="test">
      <FileUploadsPopup uploads={uploads} onClose={onClose} onReload={onReload} />
    </MantineProvider>,
  );
  return { onClose, onReload, popup: screen.getByRole('dialog', { name: 'File Uploads' }) };
}

describe('FileUploadsPopup', () => {
  it('asks before closing while a file is below 100, then reloads the page', async () => {
    const user = userEvent.setup();
    const { onClose, onReload, popup } = renderPopup([upload(0, 'a.mp4', 'done', 100), upload(1, 'b.mp4', 'uploading', 42)]);
    expect(within(popup).getByRole('progressbar', { name: 'Upload of b.mp4' })).toHaveAttribute('aria-valuenow', '42');
    expect(within(popup).getByText('1 of 2 done')).toBeInTheDocument();

    await user.click(within(popup).getByRole('button', { name: 'Close File Uploads' }));
    expect(await screen.findByText(STOP_UPLOADS_MESSAGE)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Keep uploading' }));
    await waitFor(() => expect(screen.queryByText(STOP_UPLOADS_MESSAGE)).not.toBeInTheDocument());
    expect(onReload).not.toHaveBeenCalled();

    await user.click(within(popup).getByRole('button', { name: 'Close File Uploads' }));
    await user.click(await screen.findByRole('button', { name: 'Close and reload' }));
    expect(onReload).toHaveBeenCalledTimes(1);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes at once when every file has ended, failed ones with their message', async () => {
    const user = userEvent.setup();
    const { onClose, onReload, popup } = renderPopup([upload(0, 'a.mp4', 'done', 100), upload(1, 'big.mp4', 'failed', 12, 'The upload is too large.')]);
    expect(within(popup).getByRole('alert')).toHaveTextContent('The upload is too large.');
    expect(within(popup).getByText('1 failed')).toBeInTheDocument();
    await user.click(within(popup).getByRole('button', { name: 'Close File Uploads' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onReload).not.toHaveBeenCalled();
    expect(screen.queryByText(STOP_UPLOADS_MESSAGE)).not.toBeInTheDocument();
  });

  it('minimizes to its title and expands again', async () => {
    const user = userEvent.setup();
    const { popup } = renderPopup([upload(0, 'a.mp4', 'waiting', 0)]);
    await user.click(within(popup).getByRole('button', { name: 'Minimize File Uploads' }));
    expect(within(popup).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(within(popup).getByText('File Uploads')).toBeInTheDocument();
    await user.click(within(popup).getByRole('button', { name: 'Expand File Uploads' }));
    expect(within(popup).getByRole('progressbar', { name: 'Upload of a.mp4' })).toBeInTheDocument();
  });
});
