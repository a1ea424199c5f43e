import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Hardware } from '@plinth/shared';
import { setupQueryClient, stubApi } from '../../test/mutation-harness';
import { queryKeys } from '../query-keys';
import { useUpdateHardware } from './update-hardware';

const HW = '00000000-0000-4000-8000-0000000000f1';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('useUpdateHardware', () => {
  it('useUpdateHardware stores the answer as the record and reads the hardware lists again', async () => {
    const renamed = { id: HW, name: 'Board B' } as Hardware;
    stubApi(() => ({ body: renamed }));
    const { queryClient, invalidatedKeys, wrapper } = setupQueryClient();
    queryClient.setQueryData(queryKeys.hardware(HW), { id: HW, name: 'Board A' });
    const { result } = renderHook(() => useUpdateHardware(), { wrapper });
    await act(() => result.current.mutateAsync({ hardwareId: HW, data: { name: 'Board B' } }));
    expect(queryClient.getQueryData(queryKeys.hardware(HW))).toEqual(renamed);
    expect(invalidatedKeys()).toEqual([queryKeys.hardwareLists]);
  });
});
