import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PageState } from './PageState';

function renderState(kind: 'loading' | 'forbidden', itemType: 'organization' | 'site' | 'exhibit' | 'hardware') {
  render(
    <MantineProvider env="test">
      <PageState kind={kind} itemType={itemType} />
    </MantineProvider>,
  );
}

describe('PageState', () => {
  it('shows a loader named after the item while it loads', () => {
    renderState('loading', 'exhibit');
    expect(screen.getByLabelText('Loading exhibit')).toBeInTheDocument();
  });

  it('says the user has no access to the item after a 403', () => {
    renderState('forbidden', 'hardware');
    expect(screen.getByText('You do not have access to this hardware.')).toBeInTheDocument();
    expect(screen.queryByLabelText(/Loading/)).not.toBeInTheDocument();
  });

  it('names the loader of a list, and says when it is empty or could not be read', () => {
    const { rerender } = render(
      <MantineProvider env="test">
        <PageState kind="loading" label="Loading files" />
      </MantineProvider>,
    );
    expect(screen.getByLabelText('Loading files')).toBeInTheDocument();
    rerender(
      <MantineProvider env="test">
        <PageState kind="empty" label="No files yet." />
      </MantineProvider>,
    );
    expect(screen.getByText('No files yet.')).toBeInTheDocument();
    rerender(
      <MantineProvider env="test">
        <PageState kind="error" label="The files cannot be shown right now." />
      </MantineProvider>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('The files cannot be shown right now.');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('offers Retry under a failed list when the screen can read it again', async () => {
    const onRetry = vi.fn();
    render(
      <MantineProvider env="test">
        <PageState kind="error" label="The users cannot be shown right now." onRetry={onRetry} />
      </MantineProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});
