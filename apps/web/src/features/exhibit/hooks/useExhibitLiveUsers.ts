import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ServerMessage } from '@plinth/shared';
import { queryKeys } from '../../../lib/query-keys';
import { useRealtimeListener } from '../../../lib/realtime-context';

/** Reads the exhibit's users, their granular levels and notification toggles again when the server says they changed. */
export function useExhibitLiveUsers(exhibitId: string): void {
  const queryClient = useQueryClient();
  const listener = useCallback(
    (message: ServerMessage) => {
      if (message.type !== 'exhibit.usersChanged' || message.exhibitId !== exhibitId) return;
      void queryClient.invalidateQueries({
        queryKey: queryKeys.exhibitPeople(exhibitId),
      });
    },
    [exhibitId, queryClient],
  );
  useRealtimeListener(listener);
}
