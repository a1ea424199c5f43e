import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { LockedExhibitDialog, lockedExhibitsFromError } from './LockedExhibitDialog';

const locked = [
  { id: 'e1', name: 'Dinosaur Dig' },
  { id: 'e2', name: 'Star Dome' },
];

describe('LockedExhibitDialog', () => {
  it('names the site and lists its locked exhibits', async () => {
    const onClose = vi.fn();
    render(
      <MantineProvider env="test">
        <LockedExhibitDialog opened onClose={onClose} itemType="site" lockedExhibits={locked} />
      </MantineProvider>,
    );
    expect(screen.getByText('Cannot Delete site')).toBeInTheDocument();
    expect(screen.getByText('This site cannot be deleted because it contains locked exhibits.')).toBeInTheDocument();
    expect(screen.getByText('Dinosaur Dig')).toBeInTheDocument();
    expect(screen.getByText('Star Dome')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('uses the organization and exhibit texts', () => {
    const { rerender } = render(
      <MantineProvider env="test">
        <LockedExhibitDialog opened onClose={() => undefined} itemType="organization" lockedExhibits={locked} />
      </MantineProvider>,
    );
    expect(screen.getByText('Cannot Delete organization')).toBeInTheDocument();
    expect(screen.getByText('This organization cannot be deleted because it contains locked exhibits.')).toBeInTheDocument();

    rerender(
      <MantineProvider env="test">
        <LockedExhibitDialog opened onClose={() => undefined} itemType="exhibit" lockedExhibits={[locked[0]!]} />
      </MantineProvider>,
    );
    expect(screen.getByText('Cannot Delete exhibit')).toBeInTheDocument();
    expect(screen.getByText('This exhibit cannot be deleted because it is locked.')).toBeInTheDocument();
    expect(screen.queryByText('Dinosaur Dig')).not.toBeInTheDocument();
  });
});

describe('lockedExhibitsFromError', () => {
  it('reads the locked exhibits of a 409 LockedExhibits answer only', () => {
    const body = { response: 'LockedExhibits', code: 'LockedExhibits', message: 'x', details: { lockedExhibits: locked } };
    expect(lockedExhibitsFromError(new ApiError(409, body, 'x'))).toEqual(locked);
    expect(lockedExhibitsFromError(new ApiError(403, { response: 'Forbidden', code: 'Forbidden' }, 'x'))).toBeNull();
    expect(lockedExhibitsFromError(new Error('network'))).toBeNull();
  });
});
