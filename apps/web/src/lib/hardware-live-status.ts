import { useCallback, useSyncExternalStore } from 'react';
import type { Hardware } from '@plinth/shared';

/** What a board's heartbeat changes (`hardware.statusChanged`). */
export type HardwareStatus = Pick<Hardware, 'voltage' | 'temp' | 'exhibitState' | 'uptime' | 'exhibitIP' | 'updatedAt'>;

/**
 * The newest heartbeat of each board this console heard, beside the cached lists. A site of
 * 10,000 boards heartbeats 625 times a second: writing each into the cached lists would copy the
 * lists at every frame, so the lists keep what they were read with and the cards that show a
 * heartbeat's fields read them here, each for its own board (issue 17). The cache patcher
 * (realtime-cache.ts) is the one writer.
 */
const statuses = new Map<string, HardwareStatus>();
const listeners = new Map<string, Set<() => void>>();

/** Records heartbeats and tells the cards of those boards. */
export function recordHardwareStatuses(batch: Map<string, HardwareStatus>): void {
  for (const [id, status] of batch) {
    statuses.set(id, status);
    for (const listener of listeners.get(id) ?? []) listener();
  }
}

/** Forgets every heartbeat (events may have been missed: what is shown is read again). */
export function forgetHardwareStatuses(): void {
  const ids = [...statuses.keys()];
  statuses.clear();
  for (const id of ids) for (const listener of listeners.get(id) ?? []) listener();
}

function subscribe(id: string, listener: () => void): () => void {
  let set = listeners.get(id);
  if (!set) listeners.set(id, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (!set.size) listeners.delete(id);
  };
}

/** The hardware as read, with its newest heartbeat when that is newer than the read. */
export function useHardwareWithStatus<T extends Pick<Hardware, 'id' | 'updatedAt'>>(hardware: T): T {
  const status = useSyncExternalStore(
    useCallback((listener: () => void) => subscribe(hardware.id, listener), [hardware.id]),
    () => statuses.get(hardware.id),
  );
  if (!status || Date.parse(status.updatedAt) < Date.parse(hardware.updatedAt)) return hardware;
  return { ...hardware, ...status };
}
