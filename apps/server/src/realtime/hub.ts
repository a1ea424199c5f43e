import type { RealtimeEvent } from '@plinth/shared';

export type HubListener = (event: RealtimeEvent) => void;

/**
 * Stops a listener. `ready` settles once the listener is sure to receive whatever is published
 * after it (at once in one process; with Redis, once Redis confirmed the subscription): code that
 * must not miss a message published right after a check subscribes, awaits `ready`, then checks.
 */
export type HubSubscription = (() => void) & { ready: Promise<void> };

/**
 * Where device and record events are published and where sockets listen, by topic
 * (`exhibit:{id}`, `hardware:{id}`). In one process this is a map of listeners; with several
 * server nodes a Redis pub/sub implementation of the same type fans events out between them.
 */
export type RealtimeHub = {
  publish: (topic: string, event: RealtimeEvent) => void;
  subscribe: (topic: string, listener: HubListener) => HubSubscription;
  close: () => Promise<void>;
};

/** A subscription whose `ready` is the given promise. */
export function hubSubscription(stop: () => void, ready: Promise<void> = Promise.resolve()): HubSubscription {
  return Object.assign(stop, { ready });
}

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
      return hubSubscription(() => {
        const current = listeners.get(topic);
        if (!current) return;
        current.delete(listener);
        if (current.size === 0) listeners.delete(topic);
      });
    },
    close: async () => listeners.clear(),
  };
}
