import { useMutation } from '@tanstack/react-query';
import type { LiveLogLease } from '@plinth/shared';
import { api } from '../api-client';
import type { LogSource } from './list-logs';

/**
 * POST /logging/exhibit/live {exhibitId, enabled} or /logging/hardware/live {hardwareId, enabled}:
 * switches this caller's live log of the device on (a lease the console renews) or off. While on,
 * new lines arrive on the socket as exhibit.logged or hardware.logged.
 */
export const setLiveLog = ({ kind, id }: LogSource, enabled: boolean) =>
  api.post<LiveLogLease>(`/logging/${kind}/live`, { [`${kind}Id`]: id, enabled });

/**
 * Switches the live log on or off. Nothing cached changes. The calls of one device run one after
 * another in the order made, so an "off" sent on leaving never overtakes the "on" before it.
 */
export function useSetLiveLog(source: LogSource) {
  return useMutation({
    mutationFn: (enabled: boolean) => setLiveLog(source, enabled),
    scope: { id: `live-log:${source.kind}:${source.id}` },
  });
}
