import type { HubKind, HubTopics } from './hub-messages.js';

/** Receives a topic's messages, with when each was published (ms since the epoch, on the publishing node's clock). */
export type HubListener<K extends HubKind> = (message: HubTopics[K], publishedAt: number) => void;

/**
 * Stops a listener. `ready` settles once the listener is sure to receive whatever is published
 * after it (at once in one process; with Redis, once Redis confirmed the subscription): code that
 * must not miss a message published right after a check subscribes, awaits `ready`, then checks.
 */
export type HubSubscription = (() => void) & { ready: Promise<void> };

/**
 * Where events and node messages are published and listened to, by topic: a kind and an id
 * (`exhibit` + an exhibit id, `hardware` + a hardware id, …; hub-messages.ts says what each kind
 * carries). In one process this is a map of listeners; with several server nodes a Redis pub/sub
 * implementation of the same type fans messages out between them.
 */
export type RealtimeHub = {
  publish: <K extends HubKind>(kind: K, id: string, message: HubTopics[K]) => void;
  subscribe: <K extends HubKind>(kind: K, id: string, listener: HubListener<K>) => HubSubscription;
  /** Whether events from every node arrive (false while the link to Redis is lost). */
  isLive: () => boolean;
  /** Calls `listener` when `isLive` changes; answers the function that stops it. */
  onLiveChange: (listener: (live: boolean) => void) => () => void;
  close: () => Promise<void>;
};

/** The topic of one thing: `{kind}:{id}` (also the Redis channel's suffix). */
export function hubTopic(kind: HubKind, id: string): string {
  return `${kind}:${id}`;
}

/** A subscription whose `ready` is the given promise. */
export function hubSubscription(stop: () => void, ready: Promise<void> = Promise.resolve()): HubSubscription {
  return Object.assign(stop, { ready });
}

/** Listeners by topic; what one topic's listeners receive is what its kind carries. */
export class TopicListeners {
  private readonly listeners = new Map<string, Set<(message: never, publishedAt: number) => void>>();

  /** Hands a message to the listeners of its topic; `publishedAt` defaults to now (published in this process). */
  deliver(topic: string, message: unknown, publishedAt?: number): void {
    const set = this.listeners.get(topic);
    if (!set) return;
    const at = publishedAt ?? Date.now();
    for (const listener of [...set]) (listener as (message: unknown, publishedAt: number) => void)(message, at);
  }

  add<K extends HubKind>(topic: string, listener: HubListener<K>): () => void {
    let set = this.listeners.get(topic);
    if (!set) {
      set = new Set();
      this.listeners.set(topic, set);
    }
    set.add(listener);
    return () => {
      const current = this.listeners.get(topic);
      if (!current) return;
      current.delete(listener);
      if (current.size === 0) this.listeners.delete(topic);
    };
  }

  clear(): void {
    this.listeners.clear();
  }
}

export function createInProcessHub(): RealtimeHub {
  const listeners = new TopicListeners();
  return {
    publish: (kind, id, message) => listeners.deliver(hubTopic(kind, id), message),
    subscribe: (kind, id, listener) => hubSubscription(listeners.add(hubTopic(kind, id), listener)),
    // One process: every event it makes reaches its own listeners.
    isLive: () => true,
    onLiveChange: () => () => undefined,
    close: async () => listeners.clear(),
  };
}
