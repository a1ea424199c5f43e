import type { RealtimeEvent } from '@plinth/shared';

export type HubListener = (event: RealtimeEvent) => void;

/**
 * Where device and record events are published and where sockets listen, by topic
 * (`exhibit:{id}`, `hardware:{id}`). In one process this is a map of listeners; with several
 * server nodes a Redis pub/sub implementation of the same type fans events out between them.
 */
export type RealtimeHub = {
  publish: (topic: string, event: RealtimeEvent) => void;
  subscribe: (topic: string, listener: HubListener) => () => void;
  close: () => Promise<void>;
};

export function createInProcessHub(): RealtimeHub {
  const listeners = new Map<string, Set<HubListener>>();
  return {
    publish(topic, event) {
      const set = listeners.get(topic);
      if (!set) return;
      for (const listener of [...set]) listener(event);
    },
    subscribe(topic, listener) {
      let set = listeners.get(topic);
      if (!set) {
        set = new Set();
        listeners.set(topic, set);
      }
      set.add(listener);
      return () => {
        const current = listeners.get(topic);
        if (!current) return;
        current.delete(listener);
        if (current.size === 0) listeners.delete(topic);
      };
    },
    close: async () => listeners.clear(),
  };
}
