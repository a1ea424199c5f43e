import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setupQueryClient } from '../test/mutation-harness';
import { queryKeys } from './query-keys';
import { useDeleteMutation } from './use-delete-mutation';

const HW = '00000000-0000-4000-8000-0000000000f1';

afterEach(() => vi.restoreAllMocks());

describe('useDeleteMutation', () => {
  it('a deletion drops the record and what hangs under it, and reads the lists again', async () => {
    const { queryClient, invalidatedKeys, wrapper } = setupQueryClient();
    queryClient.setQueryData(queryKeys.hardware(HW), { id: HW });
    queryClient.setQueryData(queryKeys.hardwareTokens(HW), { tokens: [] });
    const { result } = renderHook(
      () => useDeleteMutation({ mutationFn: async (_id: string) => undefined, recordKey: queryKeys.hardware, listKeys: () => [queryKeys.hardwareLists] }),
      { wrapper },
    );
    await act(() => result.current.mutateAsync(HW));
    expect(queryClient.getQueryData(queryKeys.hardware(HW))).toBeUndefined();
    expect(queryClient.getQueryData(queryKeys.hardwareTokens(HW))).toBeUndefined();
    expect(invalidatedKeys()).toEqual([queryKeys.hardwareLists]);
  });
  it('a refused deletion leaves the cache alone', async () => {
    const { queryClient, invalidated, wrapper } = setupQueryClient();
    queryClient.setQueryData(queryKeys.hardware(HW), { id: HW });
    const { result } = renderHook(
      () =>
        useDeleteMutation({
          mutationFn: async (_id: string) => Promise.reject(new Error('no')),
          recordKey: queryKeys.hardware,
          listKeys: () => [queryKeys.hardwareLists],
        }),
      { wrapper },
    );
    await act(() => result.current.mutateAsync(HW).catch(() => undefined));
    expect(queryClient.getQueryData(queryKeys.hardware(HW))).toEqual({ id: HW });
    expect(invalidated).not.toHaveBeenCalled();
  });
});
