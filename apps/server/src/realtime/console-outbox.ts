import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import type { ServerMessage } from '@plinth/shared';

/** Bytes a console socket may have waiting to be sent before it counts as slow. */
export const SLOW_CONSOLE_BYTES = 1024 * 1024;
/** Messages a slow console may have waiting (after merging) before it is closed, to read everything again when it reconnects. */
export const SLOW_CONSOLE_MAX_HELD = 10_000;
/** Bytes a console socket gathers while corked before they are sent, turn ended or not. */
const CORK_FLUSH_BYTES = 64 * 1024;
/** How often a slow console's socket is checked for room. */
const DRAIN_CHECK_MS = 50;

/**
 * The TCP socket under a ws socket. ws keeps it in `_socket` (not in its typings); without it
 * nothing is corked and every frame is written on its own, as before.
 */
function tcpOf(socket: WebSocket): Socket | undefined {
  return (socket as unknown as { _socket?: Socket })._socket;
}

/** Outboxes whose socket is corked until the end of this turn of the event loop. */
const corked = new Set<ConsoleOutbox>();

function uncorkAll(): void {
  for (const outbox of corked) outbox.uncork();
  corked.clear();
}

/**
 * Each event as the UTF-8 bytes of its JSON text, made once however many console sockets it goes
 * to (the hub hands every listener the same object): a socket sent a string measures and encodes
 * it again; sent these bytes (as a text frame) it writes them as they are.
 */
const texts = new WeakMap<ServerMessage, Buffer>();

function textOf(message: ServerMessage): Buffer {
  let text = texts.get(message);
  if (text === undefined) {
    text = Buffer.from(JSON.stringify(message));
    texts.set(message, text);
  }
  return text;
}

/** A text frame of bytes already UTF-8 (ws would otherwise send a Buffer as binary). */
const TEXT_FRAME = { binary: false } as const;

/**
 * The value a message carries, when a newer message of the same value makes it worthless (the
 * latest prop value, status, heartbeat, presence; a "read it again" notice): a slow console gets
 * only the newest. Null for messages that each count (log lines, deletions, file changes).
 */
function mergeKey(message: ServerMessage): string | null {
  switch (message.type) {
    case 'hardware.propChanged':
      return `${message.type}|${message.hardwareId}|${message.peripheralId}|${message.propName}`;
    case 'exhibit.statusChanged':
      return `${message.type}|${message.exhibitId}|${message.statusId}`;
    case 'exhibit.settingChanged':
      return `${message.type}|${message.exhibitId}|${message.settingId}`;
    case 'hardware.statusChanged':
    case 'hardware.presenceChanged':
    case 'hardware.debugChanged':
    case 'hardware.updated':
      return `${message.type}|${message.hardwareId}`;
    case 'exhibit.presenceChanged':
    case 'exhibit.opModeChanged':
    case 'exhibit.manifestChanged':
    case 'exhibit.usersChanged':
    case 'exhibit.schedulesChanged':
    case 'exhibit.updated':
      return `${message.type}|${message.exhibitId}`;
    case 'realtime.status':
      return message.type;
    default:
      return null;
  }
}

/**
 * What one console socket is sent. While the socket has less than SLOW_CONSOLE_BYTES waiting,
 * each message is written at once. Past that the console is slow (a tab in the background, a poor
 * link, a client that stopped reading): messages wait here, the newest of each value replacing
 * the one before, and go out as the socket drains. So a slow console costs bounded memory and
 * never holds up the ingest or the other consoles; one that falls behind by more than
 * SLOW_CONSOLE_MAX_HELD messages is closed (`tooSlow`), reconnects and reads everything again.
 */
export class ConsoleOutbox {
  private readonly held = new Map<string, Buffer>();
  private nextUnmerged = 0;
  private timer: NodeJS.Timeout | null = null;
  /** The corked TCP socket, while frames of this turn gather in it. */
  private tcp: Socket | null = null;
  /** Bytes written this turn (corked): they count in bufferedAmount but say nothing of the reader. */
  private turnBytes = 0;

  constructor(
    private readonly socket: WebSocket,
    private readonly tooSlow: () => void,
  ) {}

  /** How many messages wait for the socket to drain. */
  get heldCount(): number {
    return this.held.size;
  }

  write(message: ServerMessage): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    const text = textOf(message);
    if (!this.held.size && this.waitingBytes() < SLOW_CONSOLE_BYTES) {
      this.cork();
      const before = this.socket.bufferedAmount;
      this.socket.send(text, TEXT_FRAME);
      if (this.tcp) this.turnBytes += this.socket.bufferedAmount - before;
      // A saturated server's turn can last a quarter of a second: what it gathered leaves every
      // CORK_FLUSH_BYTES, so the console keeps reading meanwhile instead of waiting for the turn's end.
      if (this.turnBytes >= CORK_FLUSH_BYTES) this.uncork();
      return;
    }
    // A merged value keeps its place in line with its newest text.
    this.held.set(mergeKey(message) ?? `#${this.nextUnmerged++}`, text);
    if (this.held.size > SLOW_CONSOLE_MAX_HELD) {
      this.stop();
      this.tooSlow();
      return;
    }
    this.timer ??= setTimeout(() => this.drain(), DRAIN_CHECK_MS);
  }

  /** Drops what waits (the socket closed). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.held.clear();
    this.uncork();
    corked.delete(this);
  }

  /**
   * Bytes the console has not read yet, from earlier turns. This turn's frames wait in the cork
   * and leave together when the turn ends; they do not make a console slow.
   */
  private waitingBytes(): number {
    return this.socket.bufferedAmount - this.turnBytes;
  }

  /**
   * Corks the TCP socket until the end of this turn of the event loop, or until CORK_FLUSH_BYTES
   * gathered: the frames of a turn (a burst of prop changes, a batch of statuses) leave in one
   * system call instead of one each, which was a fifth of a saturated server's time
   * (docs/performance.md, "Where the time goes").
   */
  private cork(): void {
    if (this.tcp) return;
    const tcp = tcpOf(this.socket);
    if (!tcp) return;
    tcp.cork();
    this.tcp = tcp;
    if (!corked.size) setImmediate(uncorkAll);
    corked.add(this);
  }

  /** Sends what this turn's frames gathered. */
  uncork(): void {
    if (!this.tcp) return;
    const tcp = this.tcp;
    this.tcp = null;
    this.turnBytes = 0;
    tcp.uncork();
  }

  private drain(): void {
    this.timer = null;
    if (this.socket.readyState !== this.socket.OPEN) return this.stop();
    for (const [key, text] of this.held) {
      if (this.socket.bufferedAmount >= SLOW_CONSOLE_BYTES) break;
      this.socket.send(text, TEXT_FRAME);
      this.held.delete(key);
    }
    if (this.held.size) this.timer = setTimeout(() => this.drain(), DRAIN_CHECK_MS);
  }
}
