import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithClient } from '../test/mutation-harness';
import { CopyValue } from './CopyValue';

afterEach(() => vi.restoreAllMocks());

describe('CopyValue', () => {
  it('copies the value, reads Copied for a moment, then Copy again', async () => {
    const user = userEvent.setup(); // it gives the page a clipboard, as a browser over https would
    renderWithClient(<CopyValue value="v-123" label="Thing ID" copyName="thing ID" />);
    await user.click(screen.getByRole('button', { name: 'Copy thing ID' }));
    expect(await screen.findByRole('button', { name: 'Copied thing ID' })).toHaveTextContent('Copied');
    await expect(navigator.clipboard.readText()).resolves.toBe('v-123');
    expect(await screen.findByRole('button', { name: 'Copy thing ID' }, { timeout: 3000 })).toHaveTextContent('Copy');
  });

  it('clears its Copied timer when its screen goes away while it reads Copied', async () => {
    const user = userEvent.setup();
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    const clearTimer = vi.spyOn(globalThis, 'clearTimeout');
    const { unmount } = renderWithClient(<CopyValue value="v-123" label="Thing ID" />);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    await screen.findByRole('button', { name: 'Copied' });
    const index = setTimer.mock.calls.findIndex(([, ms]) => ms === 1000);
    expect(index).toBeGreaterThanOrEqual(0);
    const timer = setTimer.mock.results[index]!.value as ReturnType<typeof setTimeout>;
    expect(clearTimer).not.toHaveBeenCalledWith(timer);
    unmount();
    await waitFor(() => expect(clearTimer).toHaveBeenCalledWith(timer));
  });
});
