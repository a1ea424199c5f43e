import type { WebSocket } from 'ws';
import type { ServerMessage } from '@plinth/shared';

/** Bytes a console socket may have waiting to be sent before it counts as slow. */
export const SLOW_CONSOLE_BYTES = 1024 * 1024;
/** Messages a slow console may have waiting (after merging) before it is closed, to read everything again when it reconnects. */
export const SLOW_CONSOLE_MAX_HELD = 10_000;
/** How often a slow console's socket is checked for room. */
const DRAIN_CHECK_MS = 50;

/** Each event as JSON text, made once however many console sockets it goes to (the hub hands every listener the same object). */
const texts = new WeakMap<ServerMessage, string>();

function textOf(message: ServerMessage): string {
  let text = texts.get(message);
  if (text === undefined) {
    text = JSON.stringify(message);
    texts.set(message, text);
  }
  return text;
}

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
  private readonly held = new Map<string, string>();
  private nextUnmerged = 0;
  private timer: NodeJS.Timeout | null = null;

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
    if (!this.held.size && this.socket.bufferedAmount < SLOW_CONSOLE_BYTES) {
      this.socket.send(text);
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
  }

  private drain(): void {
    this.timer = null;
    if (this.socket.readyState !== this.socket.OPEN) return this.stop();
    for (const [key, text] of this.held) {
      if (this.socket.bufferedAmount >= SLOW_CONSOLE_BYTES) break;
      this.socket.send(text);
      this.held.delete(key);
    }
    if (this.held.size) this.timer = setTimeout(() => this.drain(), DRAIN_CHECK_MS);
  }
}
