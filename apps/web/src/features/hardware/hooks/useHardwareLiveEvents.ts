import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import type { Hardware, RealtimeEventOf, ServerMessage } from '@plinth/shared';
import { queryKeys } from '../../../lib/query-keys';
import { useRealtimeListener } from '../../../lib/realtime-context';

type PropEvent = RealtimeEventOf<'hardware.propChanged'>;

/** Writes live prop values of one hardware unit into its cached record, in one cache write (the peripheral is named by its id). */
export function applyPropEvents(queryClient: QueryClient, hardwareId: string, events: PropEvent[]): void {
  const latest = new Map(events.map((e) => [`${e.peripheralId}/${e.propName}`, e.value]));
  queryClient.setQueryData<Hardware>(queryKeys.hardware(hardwareId), (data) => {
    if (!data) return data;
    return {
      ...data,
      peripherals: data.peripherals.map((peripheral) =>
        peripheral.props.some((prop) => latest.has(`${peripheral.id}/${prop.name}`))
          ? { ...peripheral, props: peripheral.props.map((prop) => (latest.has(`${peripheral.id}/${prop.name}`) ? { ...prop, value: latest.get(`${peripheral.id}/${prop.name}`)! } : prop)) }
          : peripheral,
      ),
    };
  });
}

/** Writes one live prop value into the cached hardware record. */
export function applyPropEvent(queryClient: QueryClient, event: PropEvent): void {
  applyPropEvents(queryClient, event.hardwareId, [event]);
}

/**
 * Live events of one hardware unit beyond what the shared cache patcher does: prop values, a
 * record changed elsewhere (announce, firmware outcome, rename, connection) and deletion.
 */
export function useHardwareLiveEvents(hardwareId: string, onDeleted?: () => void): void {
  const queryClient = useQueryClient();
  // A socket batch (one animation frame) holds up to hundreds of prop changes of this board: they
  // are gathered and written to the cache once, after the batch's last listener call (issue 17).
  const pending = useRef<PropEvent[]>([]);
  const listener = useCallback(
    (message: ServerMessage) => {
      if (message.type === 'hardware.propChanged' && message.hardwareId === hardwareId) {
        if (pending.current.length === 0) {
          queueMicrotask(() => {
            const events = pending.current;
            pending.current = [];
            applyPropEvents(queryClient, hardwareId, events);
          });
        }
        pending.current.push(message);
      }
      if (message.type === 'hardware.updated' && message.hardwareId === hardwareId) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.hardware(hardwareId), exact: true });
        void queryClient.invalidateQueries({ queryKey: queryKeys.hardwareFirmware(hardwareId) });
        void queryClient.invalidateQueries({ queryKey: queryKeys.hardwareLists });
      }
      if (message.type === 'hardware.deleted' && message.hardwareId === hardwareId) onDeleted?.();
    },
    [hardwareId, onDeleted, queryClient],
  );
  useRealtimeListener(listener);
}
