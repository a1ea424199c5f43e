import type { HubSubscription, RealtimeHub } from './hub.js';

/**
 * Messages between server nodes about one thing (an exhibit's connection, a user's access),
 * carried by the realtime hub on topics `{prefix}:{id}`. No console socket can subscribe to these
 * topics (consoles get `exhibit:` and `hardware:` topics only), so they never reach a browser.
 */
export type NodeChannel<M> = {
  publish: (id: string, message: M) => void;
  subscribe: (id: string, listener: (message: M) => void) => HubSubscription;
};

/** A channel of node messages `M` on hub topics `{prefix}:{id}`. */
export function nodeChannel<M>(hub: RealtimeHub, prefix: string): NodeChannel<M> {
  // The hub carries any JSON by topic, in process and through Redis alike; its type names the
  // console events, which these messages are not.
  const raw = hub as unknown as {
    publish: (topic: string, message: M) => void;
    subscribe: (topic: string, listener: (message: M) => void) => HubSubscription;
  };
  return {
    publish: (id, message) => raw.publish(`${prefix}:${id}`, message),
    subscribe: (id, listener) => raw.subscribe(`${prefix}:${id}`, listener),
  };
}
