import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ManifestResponse, ServerMessage } from '@plinth/shared';
import { queryKeys } from '../../../lib/query-keys';
import { useRealtimeListener } from '../../../lib/realtime-context';
import { patchSettingValue } from '../lib/settings-tree';

/**
 * Keeps the cached manifest of one exhibit in step with its live events: status values, setting
 * values (with their applied state), op mode and online state; a manifest notice refetches it.
 */
export function useExhibitLiveManifest(exhibitId: string): void {
  const queryClient = useQueryClient();
  const listener = useCallback(
    (message: ServerMessage) => {
      const key = queryKeys.exhibitManifest(exhibitId);
      const update = (fn: (data: ManifestResponse) => ManifestResponse) =>
        queryClient.setQueryData<ManifestResponse>(key, (data) => (data ? fn(data) : data));
      switch (message.type) {
        case 'exhibit.statusChanged':
          if (message.exhibitId !== exhibitId) return;
          update((data) => ({
            ...data,
            manifest: {
              ...data.manifest,
              statuses: data.manifest.statuses.map((s) =>
                s.manifestId === message.statusId ? { ...s, value: message.value, updatedAt: new Date().toISOString() } : s,
              ),
            },
          }));
          return;
        case 'exhibit.settingChanged':
          if (message.exhibitId !== exhibitId) return;
          update((data) => ({
            ...data,
            manifest: patchSettingValue(data.manifest, message),
          }));
          return;
        case 'exhibit.opModeChanged':
          if (message.exhibitId !== exhibitId) return;
          update((data) => ({ ...data, opMode: message.opMode }));
          return;
        case 'exhibit.presenceChanged':
          if (message.exhibitId !== exhibitId) return;
          update((data) => ({
            ...data,
            online: message.online,
            ...(message.online ? {} : { opMode: 'Off' as const }),
          }));
          return;
        case 'exhibit.manifestChanged':
          if (message.exhibitId !== exhibitId) return;
          void queryClient.invalidateQueries({ queryKey: key });
          return;
        case 'exhibit.updated':
        case 'exhibit.deleted':
          if (message.exhibitId !== exhibitId) return;
          void queryClient.invalidateQueries({
            queryKey: queryKeys.exhibit(exhibitId),
            exact: true,
          });
          return;
        default:
          return;
      }
    },
    [exhibitId, queryClient],
  );
  useRealtimeListener(listener);
}
