import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ServerMessage } from '@plinth/shared';
import { queryKeys } from '../../../lib/query-keys';
import { useRealtimeListener } from '../../../lib/realtime-context';

/** Reads the exhibit's scheduled events again when the server says they changed (created, edited, deleted, run, missed). */
export function useExhibitLiveSchedules(exhibitId: string): void {
  const queryClient = useQueryClient();
  const listener = useCallback(
    (message: ServerMessage) => {
      if (message.type !== 'exhibit.schedulesChanged' || message.exhibitId !== exhibitId) return;
      void queryClient.invalidateQueries({ queryKey: queryKeys.exhibitSchedules(exhibitId) });
    },
    [exhibitId, queryClient],
  );
  useRealtimeListener(listener);
}
