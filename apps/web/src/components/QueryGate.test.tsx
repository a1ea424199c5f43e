import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { QueryGate, type GatedQuery } from './QueryGate';

function renderGate(query: GatedQuery<string[]>) {
  return render(
    <MantineProvider env="test">
      <QueryGate query={query} loading="Loading users" failed="The users cannot be shown right now.">
        {(users) => (users.length === 0 ? <p>No users yet.</p> : <p>{users.join(', ')}</p>)}
      </QueryGate>
    </MantineProvider>,
  );
}

const query = (over: Partial<GatedQuery<string[]>>): GatedQuery<string[]> => ({
  data: undefined,
  isError: false,
  error: null,
  isFetching: false,
  refetch: vi.fn(),
  ...over,
});

describe('QueryGate', () => {
  it('shows a named loader during the first read', () => {
    renderGate(query({ isFetching: true }));
    expect(screen.getByLabelText('Loading users')).toBeInTheDocument();
    expect(screen.queryByText('No users yet.')).not.toBeInTheDocument();
  });

  it("shows a failed read as a failure with the server's reason and Retry, never as the empty text", async () => {
    const failed = query({ isError: true, error: new Error('Service unavailable') });
    renderGate(failed);
    expect(screen.getByRole('alert')).toHaveTextContent('The users cannot be shown right now. Service unavailable');
    expect(screen.queryByText('No users yet.')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(failed.refetch).toHaveBeenCalledTimes(1);
  });

  it('shows the data, its own empty text included, once read', () => {
    const { unmount } = renderGate(query({ data: [] }));
    expect(screen.getByText('No users yet.')).toBeInTheDocument();
    unmount();
    renderGate(query({ data: ['ann', 'bob'] }));
    expect(screen.getByText('ann, bob')).toBeInTheDocument();
  });

  it('keeps the data shown when a later refetch fails', () => {
    renderGate(query({ data: ['ann'], isError: true, error: new Error('Service unavailable') }));
    expect(screen.getByText('ann')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
