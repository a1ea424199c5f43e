import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import type { ServerMessage } from '@plinth/shared';

/** Bytes a console socket may have waiting to be sent before it counts as slow. */
export const SLOW_CONSOLE_BYTES = 1024 * 1024;
/** Messages a slow console may have waiting (after merging) before it is closed, to read everything again when it reconnects. */
export const SLOW_CONSOLE_MAX_HELD = 10_000;
/** Bytes a console's frames gather before they are sent, however soon. */
const FLUSH_BYTES = 64 * 1024;
/**
 * A console's frames leave at most this often (or once FLUSH_BYTES gathered): a console sent
 * events all the time gets them in one write every 10 ms, not one a turn of the event loop; an
 * event after a quiet spell leaves at the end of its turn. The console draws once per animation
 * frame (16 ms) anyway.
 */
export const FLUSH_GAP_MS = 10;
/** How often a slow console's socket is checked for room. */
const DRAIN_CHECK_MS = 50;

/**
 * The TCP socket under a ws socket. ws keeps it in `_socket` (not in its typings); without it
 * each message is sent through ws.
 */
function tcpOf(socket: WebSocket): Socket | undefined {
  return (socket as unknown as { _socket?: Socket })._socket;
}

/** Outboxes holding frames to send when this turn of the event loop ends. */
const gathering = new Set<ConsoleOutbox>();

function flushAll(): void {
  for (const outbox of gathering) outbox.flush();
  gathering.clear();
}

/**
 * Each event as a whole WebSocket text frame (header and the UTF-8 bytes of its JSON), made once
 * however many console sockets it goes to. ws, sent the text, would measure, frame and write it
 * again for each socket: at a control-room wall (a hundred consoles watching every board) that
 * was most of the server's time. The hub hands every listener of an event the same object, one
 * after the other in the same turn, so the last event framed is the one kept (a map of every
 * event framed cost more than it saved: a WeakMap entry per event, and the collector's work on
 * them, for the single console most events go to).
 */
let lastMessage: ServerMessage | undefined;
let lastFrame: Buffer | undefined;

export function frameOf(message: ServerMessage): Buffer {
  if (message === lastMessage) return lastFrame!;
  const json = JSON.stringify(message);
  const length = Buffer.byteLength(json);
  // RFC 6455 5.2: FIN and the text opcode, then the length in 7 bits, 16 or 64; a server's frames are not masked.
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81;
  if (header === 2) frame[1] = length;
  else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(0, 2);
    frame.writeUInt32BE(length, 6);
  }
  frame.write(json, header);
  lastMessage = message;
  lastFrame = frame;
  return frame;
}

/** The UTF-8 text a frame of frameOf carries. */
function textOfFrame(frame: Buffer): Buffer {
  const length = frame[1]! & 0x7f;
  return frame.subarray(length < 126 ? 2 : length === 126 ? 4 : 10);
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
 * each message is written within FLUSH_GAP_MS, gathered with the others. Past that the console is slow (a tab in the background, a poor
 * link, a client that stopped reading): messages wait here, the newest of each value replacing
 * the one before, and go out as the socket drains. So a slow console costs bounded memory and
 * never holds up the ingest or the other consoles; one that falls behind by more than
 * SLOW_CONSOLE_MAX_HELD messages is closed (`tooSlow`), reconnects and reads everything again.
 */
export class ConsoleOutbox {
  /** Frames (frameOf) waiting for a slow console. */
  private readonly held = new Map<string, Buffer>();
  private nextUnmerged = 0;
  private timer: NodeJS.Timeout | null = null;
  /** Frames to send together: at the end of this turn, or FLUSH_GAP_MS after the last write (or once FLUSH_BYTES gathered). */
  private gathered: Buffer[] = [];
  private gatheredBytes = 0;
  /** When the gathered frames were last written (performance.now()). */
  private lastFlush = -Infinity;
  private flushTimer: NodeJS.Timeout | null = null;
  /**
   * The TCP socket gathered frames are written to in one buffer, or null: ws then frames each
   * message itself (no TCP socket under it, or an extension such as compression that changes frames).
   */
  private readonly raw: Socket | null;

  constructor(
    private readonly socket: WebSocket,
    private readonly tooSlow: () => void,
  ) {
    this.raw = socket.extensions === '' ? (tcpOf(socket) ?? null) : null;
  }

  /** How many messages wait for the socket to drain. */
  get heldCount(): number {
    return this.held.size;
  }

  write(message: ServerMessage): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    const frame = frameOf(message);
    // What earlier writes sent and the console has not read yet; the frames gathered do not make it slow.
    if (!this.held.size && this.socket.bufferedAmount < SLOW_CONSOLE_BYTES) {
      if (!this.gathered.length) this.scheduleFlush();
      this.gathered.push(frame);
      this.gatheredBytes += frame.length;
      // A saturated server's turn can last a quarter of a second: what it gathered leaves every
      // FLUSH_BYTES, so the console keeps reading meanwhile instead of waiting for the turn's end.
      if (this.gatheredBytes >= FLUSH_BYTES) this.flush();
      return;
    }
    // A merged value keeps its place in line with its newest frame.
    this.held.set(mergeKey(message) ?? `#${this.nextUnmerged++}`, frame);
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
    this.gathered = [];
    this.gatheredBytes = 0;
    gathering.delete(this);
    this.cancelFlushTimer();
  }

  private cancelFlushTimer(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
  }

  /** The first frame gathered: sent at the end of this turn, or once FLUSH_GAP_MS passed since the last write. */
  private scheduleFlush(): void {
    const wait = this.lastFlush + FLUSH_GAP_MS - performance.now();
    if (wait > 0) {
      this.flushTimer ??= setTimeout(() => this.flush(), wait);
      return;
    }
    if (!gathering.size) setImmediate(flushAll);
    gathering.add(this);
  }

  /**
   * Sends the frames gathered: one buffer, one write, where they were one write and one system
   * call each (a fifth of a saturated server's time, docs/performance.md).
   */
  flush(): void {
    this.cancelFlushTimer();
    const frames = this.gathered;
    if (!frames.length) return;
    this.lastFlush = performance.now();
    const bytes = this.gatheredBytes;
    this.gathered = [];
    this.gatheredBytes = 0;
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (this.raw) this.raw.write(frames.length === 1 ? frames[0]! : Buffer.concat(frames, bytes));
    else for (const frame of frames) this.writeFrame(frame);
  }

  /** Writes one frame of frameOf: as it is to the TCP socket, else its text through ws. */
  private writeFrame(frame: Buffer): void {
    if (this.raw) this.raw.write(frame);
    else this.socket.send(textOfFrame(frame), TEXT_FRAME);
  }

  private drain(): void {
    this.timer = null;
    if (this.socket.readyState !== this.socket.OPEN) return this.stop();
    // Frames gathered before the console fell behind go first.
    this.flush();
    for (const [key, frame] of this.held) {
      if (this.socket.bufferedAmount >= SLOW_CONSOLE_BYTES) break;
      this.writeFrame(frame);
      this.held.delete(key);
    }
    if (this.held.size) this.timer = setTimeout(() => this.drain(), DRAIN_CHECK_MS);
  }
}
