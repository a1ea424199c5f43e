import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Hardware, RealtimeEventOf, ServerMessage } from '@plinth/shared';
import { queryKeys } from '../../../lib/query-keys';
import { useRealtimeListener } from '../../../lib/realtime-context';

/** Writes a live prop value into the cached hardware record (the peripheral is named by its id). */
export function applyPropEvent(queryClient: QueryClient, event: RealtimeEventOf<'hardware.propChanged'>): void {
  queryClient.setQueryData<Hardware>(queryKeys.hardware(event.hardwareId), (data) => {
    if (!data) return data;
    return {
      ...data,
      peripherals: data.peripherals.map((peripheral) =>
        peripheral.id !== event.peripheralId
          ? peripheral
          : { ...peripheral, props: peripheral.props.map((prop) => (prop.name === event.propName ? { ...prop, value: event.value } : prop)) },
      ),
    };
  });
}

/**
 * Live events of one hardware unit beyond what the shared cache patcher does: prop values, a
 * record changed elsewhere (announce, firmware outcome, rename, connection) and deletion.
 */
export function useHardwareLiveEvents(hardwareId: string, onDeleted?: () => void): void {
  const queryClient = useQueryClient();
  const listener = useCallback(
    (message: ServerMessage) => {
      if (message.type === 'hardware.propChanged' && message.hardwareId === hardwareId) applyPropEvent(queryClient, message);
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
