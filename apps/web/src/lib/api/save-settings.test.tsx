import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setupQueryClient, stubApi } from '../../test/mutation-harness';
import { queryKeys } from '../query-keys';
import { useSaveSettings } from './save-settings';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('useSaveSettings', () => {
  it("useSaveSettings sends every change, answers each outcome, and reads the site's settings again when one was saved", async () => {
    const calls = stubApi((_method, path) => (path.endsWith('/bad') ? { status: 400, body: { response: 'x', code: 'ValidationError', message: 'x' } } : { body: {} }));
    const { invalidatedKeys, wrapper } = setupQueryClient();
    const { result } = renderHook(() => useSaveSettings({ scope: 'site', id: 's1' }), { wrapper });
    const results = await act(() =>
      result.current.mutateAsync([
        { idString: 'good', value: 'a' },
        { idString: 'bad', value: 'b' },
      ]),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(calls).toEqual(['PUT /org-management/site/setting/s1/good', 'PUT /org-management/site/setting/s1/bad']);
    expect(invalidatedKeys()).toEqual([queryKeys.siteSettings('s1'), queryKeys.site('s1')]);
  });
  it('useSaveSettings reads nothing again when no change was saved', async () => {
    stubApi(() => ({ status: 400, body: { response: 'x', code: 'ValidationError', message: 'x' } }));
    const { invalidated, wrapper } = setupQueryClient();
    const { result } = renderHook(() => useSaveSettings({ scope: 'organization', id: 'o1' }), { wrapper });
    await act(() => result.current.mutateAsync([{ idString: 'bad', value: 'b' }]));
    expect(invalidated).not.toHaveBeenCalled();
  });
});
