// The receiver process of the saturation benchmark (saturation.bench.ts): what a subscribed
// console sees of Plinth (a `/ws` socket subscribed to every board) and what a plain MQTT
// subscriber sees of bare aedes (every board's `prop` topic, QoS 0). It counts the prop changes
// and checks each board's sequence numbers arrive complete and in order. Its own process, so that
// its CPU is measured apart from the load and the benchmark. Driven over the fork IPC channel
// (saturation-protocol.ts).
import net from 'node:net';
import type WebSocket from 'ws';
import { openSubscribedConsole } from './lib/console-socket.js';
import { connectPacket, frameReader, PacketType, readPublish, subscribePacket } from './lib/mqtt-wire.js';
import type { FromReceiver, Side, ToReceiver } from './saturation-protocol.js';

type Tally = { received: number; reordered: number; last: Map<string, number> };

const tallies: Record<Side, Tally> = {
  plinth: { received: 0, reordered: 0, last: new Map() },
  broker: { received: 0, reordered: 0, last: new Map() },
};

function report(message: FromReceiver): void {
  process.send?.(message);
}

/** Counts one prop change; a sequence number not above the board's highest seen so far is out of order. */
function record(tally: Tally, board: string, sequence: number): void {
  tally.received += 1;
  const last = tally.last.get(board) ?? 0;
  if (sequence <= last) tally.reordered += 1;
  else tally.last.set(board, sequence);
}

let console_: WebSocket | null = null;

async function openConsole(message: Extract<ToReceiver, { type: 'open-console' }>): Promise<void> {
  const tally = tallies.plinth;
  console_ = await openSubscribedConsole({
    url: message.url,
    cookie: message.cookie,
    kind: 'hardwareIds',
    ids: message.hardwareIds,
    batch: 1000,
    onEvent: (event) => {
      if (event.type === 'hardware.propChanged' && event.peripheralId === 'text1' && event.propName === 'text') {
        record(tally, event.hardwareId, Number(event.value));
      }
    },
  });
}

let subscriber: net.Socket | null = null;

async function openSubscriber(url: URL): Promise<void> {
  const tally = tallies.broker;
  const socket = net.connect(Number(url.port), url.hostname);
  subscriber = socket;
  socket.setNoDelay(true);
  await new Promise<void>((resolve, reject) => {
    const read = frameReader((frame) => {
      if (frame.type === PacketType.publish) {
        const { topic, payload } = readPublish(frame);
        const value = (JSON.parse(payload.toString()) as { value: string }).value;
        // plinth/hw/<id>/prop
        record(tally, topic.split('/')[2]!, Number(value));
      } else if (frame.type === PacketType.connack) {
        socket.write(subscribePacket(1, 'plinth/hw/+/prop', 0));
      } else if (frame.type === PacketType.suback) resolve();
    });
    socket.on('data', read);
    socket.once('error', reject);
    socket.once('connect', () => socket.write(connectPacket({ clientId: `sat-receiver-${process.pid}` })));
  });
}

process.on('message', (message: ToReceiver) => {
  switch (message.type) {
    case 'open-console':
      openConsole(message).then(
        () => report({ type: 'opened', side: 'plinth' }),
        (error: Error) => report({ type: 'failed', side: 'plinth', error: error.message }),
      );
      return;
    case 'open-subscriber':
      openSubscriber(new URL(message.url)).then(
        () => report({ type: 'opened', side: 'broker' }),
        (error: Error) => report({ type: 'failed', side: 'broker', error: error.message }),
      );
      return;
    case 'close-subscriber':
      subscriber?.destroy();
      subscriber = null;
      return;
    case 'close-console':
      console_?.close();
      console_ = null;
      return;
    case 'reset':
      tallies[message.side].last.clear();
      return;
    case 'count': {
      const { received, reordered } = tallies[message.side];
      report({ type: 'count', side: message.side, received, reordered, at: performance.now() });
      return;
    }
    case 'close':
      console_?.close();
      subscriber?.destroy();
      process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
