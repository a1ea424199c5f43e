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

/** Shared-subscription group every Plinth server instance joins. */
export const SHARE_GROUP = 'plinth';

/** Connects to an external broker (MQTT_URL, credentials in the URL). */
export async function connectMqttLink(url: string, clientIdPrefix = 'plinth-server'): Promise<MqttLink & { client: mqtt.MqttClient }> {
  const client = await mqtt.connectAsync(url, {
    clientId: `${clientIdPrefix}-${Math.random().toString(36).slice(2, 10)}`,
    clean: true,
    reconnectPeriod: 1000,
    protocolVersion: 5,
  });
  const routes: { filter: string; handler: MqttHandler }[] = [];
  client.on('message', (topic, payload) => {
    for (const route of routes) if (topicMatches(route.filter, topic)) route.handler(topic, payload);
  });
  return {
    client,
    publish: async (topic, payload, qos) => {
      await client.publishAsync(topic, payload, { qos });
    },
    subscribe: async (filter, handler, options = {}) => {
      routes.push({ filter, handler });
      const topic = options.shared ? `$share/${SHARE_GROUP}/${filter}` : filter;
      const granted = await client.subscribeAsync(topic, { qos: 1 });
      if (granted.some((g) => g.qos > 2)) throw new Error(`The broker refused the subscription to ${topic}`);
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
