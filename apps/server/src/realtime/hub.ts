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

/**
 * A subscription whose `ready` is the given promise. Stopping it acts once: a listener stopped
 * twice must not take what belongs to another listener of the same topic (the Redis hub's count).
 */
export function hubSubscription(stop: () => void, ready: Promise<void> = Promise.resolve()): HubSubscription {
  let subscribed = true;
  const stopOnce = () => {
    if (!subscribed) return;
    subscribed = false;
    stop();
  };
  return Object.assign(stopOnce, { ready });
}

/**
 * Listeners by topic; what one topic's listeners receive is what its kind carries. Each topic's
 * listeners are an array replaced whole when one is added or removed, so a message is handed
 * over without copying them (a hundred consoles watching one exhibit each listen to its topic; a
 * hardware unit's consoles share one listener, realtime/hardware-fanout.ts), and a
 * listener removed or added while a message is handed over does not change who receives it.
 */
export class TopicListeners {
  private readonly listeners = new Map<string, ReadonlyArray<(message: never, publishedAt: number) => void>>();

  /** Hands a message to the listeners of its topic; `publishedAt` defaults to now (published in this process). */
  deliver(topic: string, message: unknown, publishedAt?: number): void {
    const current = this.listeners.get(topic);
    if (!current) return;
    const at = publishedAt ?? Date.now();
    for (const listener of current) (listener as (message: unknown, publishedAt: number) => void)(message, at);
  }

  add<K extends HubKind>(topic: string, listener: HubListener<K>): () => void {
    const entry = listener as (message: never, publishedAt: number) => void;
    this.listeners.set(topic, [...(this.listeners.get(topic) ?? []), entry]);
    let added = true;
    return () => {
      if (!added) return;
      added = false;
      const current = this.listeners.get(topic);
      if (!current) return;
      const index = current.indexOf(entry);
      if (index < 0) return;
      if (current.length === 1) this.listeners.delete(topic);
      else this.listeners.set(topic, [...current.slice(0, index), ...current.slice(index + 1)]);
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
