import type { Aedes } from 'aedes';
import mqtt from 'mqtt';

export type MqttHandler = (topic: string, payload: Buffer) => void;

/**
 * The server's own path to the broker: publish to boards and receive what they publish. In
 * process for the embedded broker; an MQTT client (with the server's credential from MQTT_URL)
 * for an external one.
 */
export type MqttLink = {
  publish: (topic: string, payload: string, qos: 0 | 1) => Promise<void>;
  /** `shared` subscriptions are spread between server instances ($share/plinth/...). */
  subscribe: (filter: string, handler: MqttHandler, options?: { shared?: boolean }) => Promise<void>;
  close: () => Promise<void>;
};

/** A link that calls the embedded aedes broker directly: no socket, no credential. */
export function createInProcessLink(broker: Aedes): MqttLink {
  const subscriptions: { filter: string; deliver: (packet: { topic: string; payload: Buffer | string }, cb: () => void) => void }[] = [];
  return {
    publish: (topic, payload, qos) =>
      new Promise((resolve, reject) => {
        broker.publish(
          { cmd: 'publish', topic, payload: Buffer.from(payload), qos, retain: false, dup: false },
          (error) => (error ? reject(error) : resolve()),
        );
      }),
    subscribe: (filter, handler) =>
      new Promise((resolve) => {
        const deliver = (packet: { topic: string; payload: Buffer | string }, cb: () => void) => {
          cb();
          handler(packet.topic, Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload));
        };
        subscriptions.push({ filter, deliver });
        broker.subscribe(filter, deliver as never, resolve);
      }),
    close: async () => {
      for (const { filter, deliver } of subscriptions.splice(0)) {
        await new Promise<void>((resolve) => broker.unsubscribe(filter, deliver as never, resolve));
      }
    },
  };
}

/**
 * How many QoS 1 messages the broker may send the link before it acknowledges them (MQTT 5's
 * Receive Maximum). Without it Mosquitto allows 20: one connection then carries only 20 a round
 * trip, about 15,000 board messages a second here, with the node idle two thirds of the time and
 * Mosquitto dropping what overflows its queue (docs/performance.md, "Saturation on Mosquitto").
 */
export const LINK_RECEIVE_MAXIMUM = 1000;

/** Shared-subscription group every Plinth server instance joins. */
export const SHARE_GROUP = 'plinth';

/** A link to an external broker. */
export type ExternalMqttLink = MqttLink & {
  client: mqtt.MqttClient;
  /**
   * Told when the link is back after it was lost at `lostAt` (the broker restarted), once its
   * subscriptions are in place again: what boards published before that reached no server.
   */
  onBack: (listener: (lostAt: Date) => void) => void;
};

/**
 * Connects to an external broker (MQTT_URL, credentials in the URL). After a lost connection the
 * link subscribes again itself, first thing once connected (mqtt.js's own resubscription waits
 * behind every publish queued during the outage), and then tells `onBack` listeners.
 */
export async function connectMqttLink(url: string, clientIdPrefix = 'plinth-server'): Promise<ExternalMqttLink> {
  const client = await mqtt.connectAsync(url, {
    clientId: `${clientIdPrefix}-${Math.random().toString(36).slice(2, 10)}`,
    clean: true,
    reconnectPeriod: 1000,
    protocolVersion: 5,
    properties: { receiveMaximum: LINK_RECEIVE_MAXIMUM },
    resubscribe: false,
  });
  const routes: { filter: string; handler: MqttHandler }[] = [];
  /** Every topic the link subscribed to (a shared one with its $share prefix). */
  const topics: string[] = [];
  const subscribe = async (list: string[]) => {
    const granted = await client.subscribeAsync(list, { qos: 1 });
    const refused = granted.filter((g) => g.qos > 2).map((g) => g.topic);
    if (refused.length > 0) throw new Error(`The broker refused the subscription to ${refused.join(', ')}`);
  };
  client.on('message', (topic, payload) => {
    for (const route of routes) if (topicMatches(route.filter, topic)) route.handler(topic, payload);
  });
  const back = new Set<(lostAt: Date) => void>();
  let lostAt: Date | null = null;
  client.on('close', () => (lostAt ??= new Date()));
  client.on('connect', () => {
    const at = lostAt;
    if (!at || topics.length === 0) return;
    subscribe([...topics]).then(
      () => {
        lostAt = null;
        for (const listener of back) listener(at);
      },
      // Lost again before the broker answered: the next connection subscribes again.
      () => undefined,
    );
  });
  return {
    client,
    onBack: (listener) => back.add(listener),
    publish: async (topic, payload, qos) => {
      await client.publishAsync(topic, payload, { qos });
    },
    subscribe: async (filter, handler, options = {}) => {
      routes.push({ filter, handler });
      const topic = options.shared ? `$share/${SHARE_GROUP}/${filter}` : filter;
      topics.push(topic);
      await subscribe([topic]);
    },
    close: async () => {
      await client.endAsync();
    },
  };
}

/** MQTT topic filter matching (+ and #). */
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length) return false;
    if (f[i] !== '+' && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}
