// A load process of the saturation benchmark (saturation.bench.ts): one raw MQTT connection per
// board, to Plinth's embedded broker, to a Mosquitto Plinth manages (MQTT_URL), or to the bare
// broker (aedes or Mosquitto), each keeping a fixed window of QoS 1 prop changes in flight (a
// message is in flight until its PUBACK), under a rate cap no more than the cap allows. Packets
// are copied from a template built once per board, with the message id and the sequence number
// written in place, so that the load costs little CPU next to the server it measures. Driven
// over the fork IPC channel (saturation-protocol.ts).
import net from 'node:net';
import { defaultPeripherals } from '@plinth/hardware-sim';
import { hardwareTopic } from '@plinth/shared';
import type { FleetBoard } from './hardware-protocol.js';
import { openEach } from './lib/load-processes.js';
import { connectPacket, DISCONNECT, frameReader, PacketType, publishPacket, pubackPacket, readPublish, subscribePacket, type Frame } from './lib/mqtt-wire.js';
import { propPayload, SEQUENCE_DIGITS, writeSequence, type FromLoad, type Side, type ToLoad } from './saturation-protocol.js';

const CONNECT_TIMEOUT_MS = 30_000;
const CONNECTING_AT_ONCE = 50;
/** Message ids at or above this are the setup's (subscribe, status, announce); the prop stream cycles below it. */
const SETUP_IDS = 65_000;
/** A long heartbeat interval in the announce: boards idle while the other side's round runs are not timed out. */
const ANNOUNCED_HEARTBEAT_MS = 600_000;

type Connection = {
  socket: net.Socket;
  /** A PUBLISH of this board's prop topic; message id and sequence digits are rewritten per copy. */
  template: Buffer;
  idOffset: number;
  sequenceOffset: number;
  sequence: number;
  nextId: number;
  inFlight: number;
  setupPending: number;
};

type SideState = {
  connections: Connection[];
  running: boolean;
  window: number;
  sent: number;
  /** Prop changes a second this process may send on the side (0: no cap, the window alone). */
  rate: number;
  /** Prop changes it may send now under `rate`, refilled by `pacer`. */
  allowance: number;
  pacer: NodeJS.Timeout | null;
};

/** How often a capped side's allowance is refilled and its connections topped up (ms). */
const PACE_MS = 5;
/** The allowance holds at most this long's worth (ms): a late timer loses nothing, and no burst is larger. */
const ALLOWANCE_MS = 20;

const sides = new Map<Side, SideState>();

function report(message: FromLoad): void {
  process.send?.(message);
}

function sideState(side: Side): SideState {
  let state = sides.get(side);
  if (!state) {
    state = { connections: [], running: false, window: 1, sent: 0, rate: 0, allowance: 0, pacer: null };
    sides.set(side, state);
  }
  return state;
}

/** Writes as many prop changes as the window allows, in one socket write. */
function topUp(connection: Connection, state: SideState): void {
  let count = state.running ? state.window - connection.inFlight : 0;
  if (state.rate) count = Math.min(count, Math.floor(state.allowance));
  if (count <= 0) return;
  if (state.rate) state.allowance -= count;
  const { template, idOffset, sequenceOffset } = connection;
  const size = template.length;
  const batch = Buffer.allocUnsafe(size * count);
  for (let i = 0; i < count; i++) {
    const at = i * size;
    template.copy(batch, at);
    const id = connection.nextId;
    connection.nextId = id >= SETUP_IDS - 1 ? 1 : id + 1;
    batch.writeUInt16BE(id, at + idOffset);
    writeSequence(batch, at + sequenceOffset, ++connection.sequence);
  }
  connection.inFlight += count;
  state.sent += count;
  connection.socket.write(batch);
}

/** Answers a command from the server as a board does: PUBACK, then a `result` saying ok; returns the command's name. */
function answerCommand(connection: Connection, board: FleetBoard, frame: Frame): string | undefined {
  const { messageId, payload } = readPublish(frame);
  if (messageId) connection.socket.write(pubackPacket(messageId));
  try {
    const command = JSON.parse(payload.toString()) as { command?: string; correlationId?: string };
    if (command.correlationId) {
      connection.socket.write(publishPacket(hardwareTopic(board.id, 'result'), JSON.stringify({ correlationId: command.correlationId, ok: true }), 0));
    }
    return command.command;
  } catch {
    return undefined; // not a command this load answers
  }
}

/**
 * Opens one board's connection: CONNECT (with its last will), then subscribe to cmd, status online,
 * announce. On a Plinth side the board is ready once Plinth has applied its announce, which it
 * answers with the `debug` command: Plinth acknowledges the announce before it stores it, and
 * prop changes sent before then wait behind it in the board's queue (with 2,000 boards announcing
 * at once, for seconds: a round started then measured the announces, not the prop stream).
 */
function openConnection(url: URL, board: FleetBoard, state: SideState, awaitDebug: boolean): Promise<Connection> {
  const epoch = Date.now();
  const template = publishPacket(hardwareTopic(board.id, 'prop'), propPayload(0), 1, 0);
  const payloadLength = Buffer.byteLength(propPayload(0));
  const connection: Connection = {
    socket: net.connect(Number(url.port), url.hostname),
    template,
    idOffset: template.length - payloadLength - 2,
    // The payload ends with the digits, then `"}`.
    sequenceOffset: template.length - 2 - SEQUENCE_DIGITS,
    sequence: 0,
    nextId: 1,
    inFlight: 0,
    setupPending: awaitDebug ? 4 : 3,
  };
  const { socket } = connection;
  socket.setNoDelay(true);
  let debugSeen = false;
  return new Promise<Connection>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`no CONNACK, SUBACK, PUBACKs (and from Plinth the debug command) within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const setupDone = () => {
      connection.setupPending -= 1;
      if (connection.setupPending === 0) {
        clearTimeout(timer);
        resolve(connection);
      }
    };
    const read = frameReader((frame) => {
      switch (frame.type) {
        case PacketType.puback:
          if (frame.body.readUInt16BE(0) >= SETUP_IDS) setupDone();
          else connection.inFlight -= 1;
          return;
        case PacketType.connack: {
          const code = frame.body[1];
          if (code !== 0) return fail(new Error(`CONNACK refused the connection (code ${code})`));
          const peripherals = defaultPeripherals().filter((p) => p.id === 'text1');
          const announce = { plinth_fw: '1.0.0', user_fw: '1.0.0', ip: '10.0.0.42', mac: 'DE:AD:BE:EF:00:01', heartbeatMs: ANNOUNCED_HEARTBEAT_MS, peripherals };
          socket.write(
            Buffer.concat([
              subscribePacket(SETUP_IDS, hardwareTopic(board.id, 'cmd'), 1),
              publishPacket(hardwareTopic(board.id, 'status'), JSON.stringify({ online: true, epoch }), 1, SETUP_IDS + 1),
              publishPacket(hardwareTopic(board.id, 'announce'), JSON.stringify(announce), 1, SETUP_IDS + 2),
            ]),
          );
          return;
        }
        case PacketType.suback:
          return setupDone();
        case PacketType.publish:
          // The debug command counts once (Plinth may send it again on a later announce).
          if (answerCommand(connection, board, frame) === 'debug' && awaitDebug && !debugSeen) {
            debugSeen = true;
            setupDone();
          }
          return;
        default:
          return;
      }
    });
    socket.on('data', (chunk: Buffer) => {
      read(chunk);
      topUp(connection, state);
    });
    socket.once('error', (error) => fail(error));
    socket.once('connect', () =>
      socket.write(
        connectPacket({
          clientId: `sat-${board.id.slice(0, 8)}-${Math.random().toString(36).slice(2, 8)}`,
          username: board.id,
          password: board.token,
          will: { topic: hardwareTopic(board.id, 'status'), payload: JSON.stringify({ online: false, epoch }) },
        }),
      ),
    );
  });
}

/**
 * Under a rate cap, every PACE_MS: refill the allowance (at most ALLOWANCE_MS worth) and top up the
 * connections, starting each time one further along so that none is always last.
 */
function startPacer(state: SideState): void {
  let last = performance.now();
  let first = 0;
  state.allowance = 0;
  state.pacer = setInterval(() => {
    const now = performance.now();
    state.allowance = Math.min(state.allowance + (state.rate * (now - last)) / 1000, Math.max(1, (state.rate * ALLOWANCE_MS) / 1000));
    last = now;
    const { connections } = state;
    for (let i = 0; i < connections.length && state.allowance >= 1; i++) topUp(connections[(first + i) % connections.length]!, state);
    first = (first + 1) % Math.max(1, connections.length);
  }, PACE_MS);
}

function stopPacer(state: SideState): void {
  if (state.pacer) clearInterval(state.pacer);
  state.pacer = null;
}

async function connect(message: Extract<ToLoad, { type: 'connect' }>): Promise<void> {
  const state = sideState(message.side);
  const url = new URL(message.url);
  const { opened, failed, errors } = await openEach(message.boards, CONNECTING_AT_ONCE, (board) => openConnection(url, board, state, message.side !== 'broker'));
  state.connections.push(...opened);
  report({ type: 'connected', side: message.side, ready: state.connections.length, failed, errors });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function stop(side: Side): Promise<void> {
  const state = sideState(side);
  state.running = false;
  stopPacer(state);
  for (let i = 0; i < 500 && state.connections.some((c) => c.inFlight > 0); i++) await sleep(20);
  const unacknowledged = state.connections.reduce((n, c) => n + c.inFlight, 0);
  report({ type: 'stopped', side, sent: state.sent, unacknowledged });
}

async function disconnect(side: Side): Promise<void> {
  const state = sideState(side);
  state.running = false;
  stopPacer(state);
  await Promise.all(
    state.connections.map(
      (c) =>
        new Promise<void>((resolve) => {
          c.socket.once('close', () => resolve());
          c.socket.end(DISCONNECT);
          setTimeout(() => c.socket.destroy(), 5000).unref();
        }),
    ),
  );
  sides.delete(side);
  report({ type: 'disconnected', side });
}

process.on('message', (message: ToLoad) => {
  switch (message.type) {
    case 'connect':
      void connect(message);
      return;
    case 'start': {
      const state = sideState(message.side);
      state.running = true;
      state.window = message.window;
      state.sent = 0;
      state.rate = message.rate;
      if (state.rate) startPacer(state);
      else for (const connection of state.connections) topUp(connection, state);
      return;
    }
    case 'stop':
      void stop(message.side);
      return;
    case 'disconnect':
      void disconnect(message.side);
      return;
    case 'close':
      for (const state of sides.values()) for (const c of state.connections) c.socket.destroy();
      process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
