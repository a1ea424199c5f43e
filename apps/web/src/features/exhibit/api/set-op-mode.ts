import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Exhibit, OpMode } from '@plinth/shared';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type SetOpModeInput = { exhibitId: string; opMode: OpMode };

/** POST /exhibit-management/exhibit/{id}/opMode: the exhibit applies it at once (it must be online). */
export const setOpMode = ({ exhibitId, opMode }: SetOpModeInput) => api.post<{ ok: true }>(`/exhibit-management/exhibit/${exhibitId}/opMode`, { opMode });

/**
 * Turns the op mode On or Off: the cached exhibit shows the new mode at once, and its manifest
 * (whose controls and settings depend on the mode) and the exhibit lists are read again.
 */
export function useSetOpMode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setOpMode,
    onSuccess: (_answer, { exhibitId, opMode }) => {
      queryClient.setQueryData<Exhibit>(queryKeys.exhibit(exhibitId), (data) => (data ? { ...data, opMode, op_mode: opMode === 'On' } : data));
      void queryClient.invalidateQueries({ queryKey: queryKeys.exhibitManifest(exhibitId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.exhibits });
    },
  });
}
