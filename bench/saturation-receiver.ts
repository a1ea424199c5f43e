// The receiver process of the saturation benchmark (saturation.bench.ts): what a subscribed
// console sees of Plinth (a `/ws` socket subscribed to every board, one per Plinth side: one node,
// or the first of two nodes), what a plain MQTT subscriber sees of the bare broker, aedes or
// Mosquitto (every board's `prop` topic, QoS 0), and what another console
// socket subscribed to every exhibit sees of the exhibits' statuses. It counts the prop changes
// and statuses and checks each board's and exhibit's sequence numbers arrive complete and in
// order. Its own process, so that its CPU is measured apart from the load and the benchmark.
// Driven over the fork IPC channel (saturation-protocol.ts).
import net from 'node:net';
import type WebSocket from 'ws';
import type { ServerMessage } from '@plinth/shared';
import { openSubscribedConsole } from './lib/console-socket.js';
import { connectPacket, frameReader, PacketType, readPublish, subscribePacket } from './lib/mqtt-wire.js';
import { EXHIBIT_STATUS_ID, type FromReceiver, type PlinthSide, type Stream, type ToReceiver } from './saturation-protocol.js';

type Tally = { received: number; reordered: number; skipped: number; linkLost: number; last: Map<string, number> };

const tally = (): Tally => ({ received: 0, reordered: 0, skipped: 0, linkLost: 0, last: new Map() });
const tallies: Record<Stream, Tally> = { plinth: tally(), cluster: tally(), broker: tally(), exhibit: tally() };

function report(message: FromReceiver): void {
  process.send?.(message);
}

/**
 * Counts one prop change or status; a sequence number not above the board's (exhibit's) highest
 * seen so far is out of order, and the numbers a value jumps over are counted as skipped.
 */
function record(tally: Tally, board: string, sequence: number): void {
  tally.received += 1;
  const last = tally.last.get(board) ?? 0;
  if (sequence <= last) tally.reordered += 1;
  else {
    tally.skipped += sequence - last - 1;
    tally.last.set(board, sequence);
  }
}

/** The boards' console sockets, one per Plinth side. */
const consoles = new Map<PlinthSide, WebSocket>();
let exhibitConsole: WebSocket | null = null;

/** A console socket signed in with `cookie`, subscribed to every board or exhibit named, each event to `onEvent`. */
function openCountingConsole(message: { url: string; cookie: string }, kind: 'hardwareIds' | 'exhibitIds', ids: string[], onEvent: (event: ServerMessage) => void): Promise<WebSocket> {
  return openSubscribedConsole({ url: message.url, cookie: message.cookie, kind, ids, batch: 1000, onEvent });
}

/** The exhibits' console: counts `exhibit.statusChanged` of the benchmark's status. */
async function openExhibitConsole(message: Extract<ToReceiver, { type: 'open-exhibit-console' }>): Promise<void> {
  const tally = tallies.exhibit;
  exhibitConsole = await openCountingConsole(message, 'exhibitIds', message.exhibitIds, (event) => {
    if (event.type === 'exhibit.statusChanged' && event.statusId === EXHIBIT_STATUS_ID) record(tally, event.exhibitId, Number(event.value));
  });
}

/** Runs an opening and says how it went. */
function answerOpening(side: Stream, opening: Promise<void>): void {
  opening.then(
    () => report({ type: 'opened', side }),
    (error: Error) => report({ type: 'failed', side, error: error.message }),
  );
}

async function openConsole(message: Extract<ToReceiver, { type: 'open-console' }>): Promise<void> {
  const tally = tallies[message.side];
  const socket = await openCountingConsole(message, 'hardwareIds', message.hardwareIds, (event) => {
    if (event.type === 'hardware.propChanged' && event.peripheralId === 'text1' && event.propName === 'text') {
      record(tally, event.hardwareId, Number(event.value));
    } else if (event.type === 'realtime.status' && !event.live) tally.linkLost += 1;
  });
  consoles.set(message.side, socket);
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
      answerOpening(message.side, openConsole(message));
      return;
    case 'open-subscriber':
      answerOpening('broker', openSubscriber(new URL(message.url)));
      return;
    case 'open-exhibit-console':
      answerOpening('exhibit', openExhibitConsole(message));
      return;
    case 'close-subscriber':
      subscriber?.destroy();
      subscriber = null;
      return;
    case 'close-console':
      consoles.get(message.side)?.close();
      consoles.delete(message.side);
      return;
    case 'close-exhibit-console':
      exhibitConsole?.close();
      exhibitConsole = null;
      return;
    case 'reset':
      tallies[message.side].last.clear();
      return;
    case 'count': {
      const { received, reordered, skipped, linkLost } = tallies[message.side];
      report({ type: 'count', side: message.side, received, reordered, skipped, linkLost, at: performance.now() });
      return;
    }
    case 'close':
      for (const socket of consoles.values()) socket.close();
      exhibitConsole?.close();
      subscriber?.destroy();
      process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
