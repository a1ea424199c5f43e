import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setupQueryClient } from '../test/mutation-harness';
import { queryKeys } from './query-keys';
import { useRefreshingMutation } from './use-refreshing-mutation';

afterEach(() => vi.restoreAllMocks());

describe('useRefreshingMutation', () => {
  it('runs the write, then reads the queries it names from the input again', async () => {
    const { invalidatedKeys, wrapper } = setupQueryClient();
    const write = vi.fn(async (organizationId: string) => ({ organizationId }));
    const { result } = renderHook(() => useRefreshingMutation(write, (organizationId) => [queryKeys.sites, queryKeys.organization(organizationId)]), {
      wrapper,
    });
    await expect(act(() => result.current.mutateAsync('o1'))).resolves.toEqual({ organizationId: 'o1' });
    expect(write).toHaveBeenCalledWith('o1');
    expect(invalidatedKeys()).toEqual([queryKeys.sites, queryKeys.organization('o1')]);
  });

  it('reads nothing again when the write fails', async () => {
    const { invalidated, wrapper } = setupQueryClient();
    const { result } = renderHook(() => useRefreshingMutation(async (_: string) => Promise.reject(new Error('no')), () => [queryKeys.sites]), { wrapper });
    await act(() => result.current.mutateAsync('x').catch(() => undefined));
    expect(invalidated).not.toHaveBeenCalled();
  });
});
