import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMosquitto, type RunningMosquitto } from '../test/mosquitto.js';
import { waitUntil } from '../test/hardware-kit.js';
import { connectMqttLink, type ExternalMqttLink } from './mqtt-link.js';

/**
 * The server's link to an external broker receives every board's messages on one connection.
 * Mosquitto sends a client at most 20 unacknowledged QoS 1 messages unless the client asks for
 * more (MQTT 5's Receive Maximum): with 20, one node carried about 15,000 board messages a second
 * with its server at a third of a core, and Mosquitto dropped the rest (issue 22).
 */

let mosquitto: RunningMosquitto;
let link: ExternalMqttLink;
let publisher: mqtt.MqttClient;

beforeAll(async () => {
  mosquitto = await startMosquitto();
  link = await connectMqttLink(mosquitto.serverUrl, 'plinth-link-test');
  publisher = await mqtt.connectAsync(mosquitto.serverUrl, { clientId: 'plinth-link-test-publisher', protocolVersion: 5 });
}, 30_000);

afterAll(async () => {
  await publisher?.endAsync();
  await link?.close();
  await mosquitto?.stop();
});

describe('the link to an external broker', () => {
  it('is handed many more than Mosquitto’s default 20 unacknowledged messages at once', { timeout: 30_000 }, async () => {
    const received: string[] = [];
    await link.subscribe('plinth/hw/+/prop', (_topic, payload) => received.push(payload.toString()), { shared: true });
    // Hold back what the link writes to the broker (its acknowledgements): what arrives meanwhile
    // is what the broker lets be in flight to the node.
    const stream = link.client.stream;
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    const held: unknown[][] = [];
    stream.write = ((...args: unknown[]) => {
      held.push(args);
      return true;
    }) as typeof stream.write;

    const sent = 300;
    for (let i = 0; i < sent; i++) {
      await publisher.publishAsync('plinth/hw/0b6c0b52-8f0e-4f4e-9a55-1d7d1b1f0c11/prop', String(i), { qos: 1 });
    }
    try {
      await waitUntil(() => received.length === sent, `all ${sent} messages in flight to the link before any acknowledgement (${received.length} came)`, 10_000);
    } finally {
      stream.write = write as typeof stream.write;
      for (const args of held.splice(0)) write(...args);
    }
    expect(received).toEqual(Array.from({ length: sent }, (_, i) => String(i)));

    // Acknowledged now: the broker goes on sending.
    await publisher.publishAsync('plinth/hw/0b6c0b52-8f0e-4f4e-9a55-1d7d1b1f0c11/prop', 'after', { qos: 1 });
    await waitUntil(() => received.at(-1) === 'after', 'a message after the acknowledgements went out');
  });
});
