// An exhibit load process of the saturation benchmark (saturation.bench.ts): one SDK socket per
// exhibit, opened as @plinth/sdk opens it (docs/protocols/exhibit-sdk.md: authenticate over HTTP,
// `/ws?client=exhibit`, `auth`, `manifest`, `exhibit.synced` answered with `ack`, a WebSocket
// ping every 10 s), then one `status {id, value}` whose value is the exhibit's sequence number,
// and on `start` a stream of them. Statuses have no acknowledgement, so the pace is TCP
// backpressure: a connection writes whenever its socket has fewer than `window` statuses buffered
// (`bufferedAmount` < window × frame size), so the server's own reading sets the rate. Each
// message is one text buffer per connection with its digits rewritten in place, and a batch
// leaves in one system call (the TCP socket is corked while it is written). Driven over the fork
// IPC channel (saturation-protocol.ts).
//
// Backpressure alone lets the kernel's socket buffers fill first (on this machine megabytes a
// socket: 12 million statuses queued with 200 sockets), so with `unanswered` the load also keeps
// at most that many statuses a socket beyond the last `pong`: a `ping` (the protocol's own,
// answered in order after the statuses before it) goes out every quarter of that. Nothing passes
// through the receiver or the benchmark.
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { EXHIBIT_HEARTBEAT_MS, SDK_PROTOCOL_VERSION } from '@plinth/shared';
import { openEach } from './lib/load-processes.js';
import {
  EXHIBIT_MANIFEST,
  SEQUENCE_DIGITS,
  STATUS_FRAME_BYTES,
  statusMessage,
  writeSequence,
  type FromExhibitLoad,
  type LoadExhibit,
  type ToExhibitLoad,
} from './saturation-protocol.js';

const CONNECT_TIMEOUT_MS = 30_000;
const CONNECTING_AT_ONCE = 50;

type Connection = {
  socket: WebSocket;
  /** The TCP socket under the ws socket (ws keeps it in `_socket`), corked while a batch is written. */
  tcp: Socket | undefined;
  /** This exhibit's status message as text; its digits are rewritten for every copy (ws copies it as it masks it). */
  text: Buffer;
  sequence: number;
  /** A batch is out: its last message's write callback has not come yet. */
  waiting: boolean;
  /** The sequence numbers at which `ping`s went out and no `pong` came yet, oldest first. */
  pings: number[];
  /** The highest sequence number a `pong` has answered for (the server handles a socket's messages in order). */
  answered: number;
  /** The write callback of a batch's last message, made once per connection. */
  written: (error?: Error) => void;
};

const SEQUENCE_OFFSET = Buffer.byteLength(statusMessage(0)) - 2 - SEQUENCE_DIGITS;
const TEXT = { binary: false };

const PING = JSON.stringify({ type: 'ping' });

const connections: Connection[] = [];
const errors = new Set<string>();
/**
 * How the connections write since the last `start`: `unanswered` is how many statuses a connection
 * may have that no `pong` answered yet (0: no bound), `pingEvery` how many go between two `ping`s.
 */
const pace = { running: false, window: 1, unanswered: 0, pingEvery: 1 };
/** Statuses written, sockets the server closed and `error` answers since the last `start`. */
const totals = { sent: 0, closed: 0, refused: 0 };

function report(message: FromExhibitLoad): void {
  process.send?.(message);
}

/**
 * Writes statuses until the socket holds `window` of them (not yet handed to the kernel), as one
 * batch; with a bound, no more than `unanswered` beyond the last `pong`, a `ping` every `pingEvery`.
 */
function topUp(connection: Connection): void {
  const { socket, tcp, text } = connection;
  const { running, window, unanswered, pingEvery } = pace;
  if (!running || connection.waiting || socket.readyState !== WebSocket.OPEN) return;
  let count = window - Math.floor(socket.bufferedAmount / STATUS_FRAME_BYTES);
  if (unanswered) count = Math.min(count, unanswered - (connection.sequence - connection.answered));
  if (count <= 0) return;
  tcp?.cork();
  for (let i = 0; i < count; i++) {
    writeSequence(text, SEQUENCE_OFFSET, ++connection.sequence);
    if (i < count - 1) socket.send(text, TEXT);
    else socket.send(text, TEXT, connection.written);
  }
  const lastPing = connection.pings.at(-1) ?? connection.answered;
  if (unanswered && connection.sequence - lastPing >= pingEvery) {
    socket.send(PING);
    connection.pings.push(connection.sequence);
  }
  connection.waiting = true;
  totals.sent += count;
  tcp?.uncork();
}

/** A `pong`: the statuses up to the oldest `ping` out are handled; room for more. */
function answer(connection: Connection): void {
  connection.answered = connection.pings.shift() ?? connection.answered;
  topUp(connection);
}

/** The JSON message of a socket, or null (what does not parse is left alone, as the SDK does). */
function parse(raw: WebSocket.RawData): { type: string; [key: string]: unknown } | null {
  try {
    return JSON.parse(raw.toString()) as { type: string };
  } catch {
    return null;
  }
}

/** The SDK's first step: the exhibit's id and token for a credential that opens one socket. */
async function authenticate(url: string, exhibit: LoadExhibit): Promise<string> {
  const res = await fetch(new URL('/api/v1/auth/exhibit/authenticate', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ exhibitId: exhibit.id, token: exhibit.token }),
  });
  const body = (await res.json().catch(() => null)) as { credential?: string } | null;
  if (!res.ok || !body?.credential) throw new Error(`authentication answered ${res.status}`);
  return body.credential;
}

/** Opens one exhibit's socket and resolves once its manifest is taken and its values synced. */
async function openConnection(url: string, exhibit: LoadExhibit): Promise<Connection> {
  const credential = await authenticate(url, exhibit);
  const socket = new WebSocket(new URL('/ws?client=exhibit', url.replace(/^http/, 'ws')));
  const connection: Connection = { socket, tcp: undefined, text: Buffer.from(statusMessage(0)), sequence: 0, waiting: false, pings: [], answered: 0, written: () => undefined };
  connection.written = (error) => {
    connection.waiting = false;
    if (!error) setImmediate(topUp, connection);
  };
  let ready = false;
  return new Promise<Connection>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`no auth.ok, manifest.ok and exhibit.synced within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.terminate();
      reject(error);
    };
    socket.on('open', () => {
      connection.tcp = (socket as unknown as { _socket?: Socket })._socket;
      socket.send(JSON.stringify({ type: 'auth', exhibitId: exhibit.id, token: credential }));
    });
    socket.on('message', (raw) => {
      const message = parse(raw);
      if (ready) {
        if (message?.type === 'pong') answer(connection);
        else if (message?.type === 'error') {
          totals.refused += 1;
          errors.add(String(message.message));
        }
        return;
      }
      switch (message?.type) {
        case 'auth.ok':
          if (Number(message.protocolVersion ?? 1) > SDK_PROTOCOL_VERSION) return fail(new Error(`the server speaks exhibit protocol ${String(message.protocolVersion)}`));
          socket.send(JSON.stringify({ type: 'manifest', requestId: '1', manifest: EXHIBIT_MANIFEST }));
          return;
        case 'manifest.error':
          return fail(new Error(`manifest.error: ${String(message.message)}`));
        case 'error':
          return fail(new Error(`error: ${String(message.message)}`));
        case 'exhibit.synced':
          socket.send(JSON.stringify({ type: 'ack', settings: [], listItems: [] }));
          // The first status, alone: the benchmark waits for every exhibit's before it measures.
          writeSequence(connection.text, SEQUENCE_OFFSET, ++connection.sequence);
          socket.send(connection.text, TEXT);
          ready = true;
          clearTimeout(timer);
          resolve(connection);
          return;
        default:
          return;
      }
    });
    socket.on('error', (error) => {
      if (!ready) fail(error);
      else errors.add(error.message);
    });
    socket.on('close', (code, reason) => {
      if (!ready) return fail(new Error(`the socket closed (${code} ${reason.toString()})`));
      totals.closed += 1;
      errors.add(`closed by the server (${code} ${reason.toString()})`);
    });
  });
}

async function connect(message: Extract<ToExhibitLoad, { type: 'connect' }>): Promise<void> {
  const { opened, failed, errors: failures } = await openEach(message.exhibits, CONNECTING_AT_ONCE, (exhibit) => openConnection(message.url, exhibit));
  connections.push(...opened);
  report({ type: 'connected', ready: opened.length, failed, errors: failures });
}

/**
 * Stops writing and answers at once: what the sockets still hold leaves as the server reads it,
 * like what the kernel's socket buffers hold, and the benchmark's drain waits for both.
 */
function stop(): void {
  pace.running = false;
  report({ type: 'stopped', ...totals, errors: [...errors].slice(0, 5) });
}

async function disconnect(): Promise<void> {
  pace.running = false;
  await Promise.all(
    connections.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.socket.readyState === WebSocket.CLOSED) return resolve();
          c.socket.once('close', () => resolve());
          c.socket.close(1000);
          setTimeout(() => c.socket.terminate(), 5000).unref();
        }),
    ),
  );
  connections.length = 0;
  report({ type: 'disconnected' });
}

// The SDK's heartbeat: a WebSocket ping every EXHIBIT_HEARTBEAT_MS (the server drops a socket it has not heard from in 25 s).
setInterval(() => {
  for (const c of connections) if (c.socket.readyState === WebSocket.OPEN) c.socket.ping();
}, EXHIBIT_HEARTBEAT_MS).unref();

process.on('message', (message: ToExhibitLoad) => {
  switch (message.type) {
    case 'connect':
      void connect(message);
      return;
    case 'start':
      Object.assign(pace, { running: true, window: message.window, unanswered: message.unanswered, pingEvery: Math.max(1, Math.floor(message.unanswered / 4)) });
      Object.assign(totals, { sent: 0, closed: 0, refused: 0 });
      errors.clear();
      for (const connection of connections) topUp(connection);
      return;
    case 'sent':
      report({ type: 'sent', sent: totals.sent });
      return;
    case 'stop':
      stop();
      return;
    case 'disconnect':
      void disconnect();
      return;
    case 'close':
      for (const c of connections) c.socket.terminate();
      process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
