import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { EXHIBIT_CLOSE, type GatewayMessage } from '@plinth/shared';
import type { AppDeps } from '../deps.js';
import { ownString } from '../lib/own-string.js';
import type { StatusSource } from '../modules/exhibit-runtime/exhibit-ingest.service.js';
import type { ExhibitCodec, OfflineReason } from './ports.js';

/** How the server closes an exhibit's socket: the code the SDK reads, the reason kept in history, the text. */
export type ExhibitClose = { code: number; reason: OfflineReason; text: string };

/** Every way the server closes an exhibit's socket (docs/protocols/exhibit-sdk.md, close codes). */
export const EXHIBIT_CLOSES = {
  unauthorized: { code: EXHIBIT_CLOSE.unauthorized, reason: 'closed', text: 'unauthorized' },
  noAuthMessage: { code: EXHIBIT_CLOSE.unauthorized, reason: 'closed', text: 'no auth message' },
  revoked: { code: EXHIBIT_CLOSE.unauthorized, reason: 'revoked', text: 'token revoked' },
  replaced: { code: EXHIBIT_CLOSE.replaced, reason: 'replaced', text: 'another connection of this exhibit took over' },
  deleted: { code: EXHIBIT_CLOSE.deleted, reason: 'deleted', text: 'the exhibit was deleted' },
  restarting: { code: EXHIBIT_CLOSE.restarting, reason: 'shutdown', text: 'the server is restarting; reconnect' },
} as const satisfies Record<string, ExhibitClose>;

/**
 * An authenticated connection as the message handlers see it: the exhibit it speaks for, its
 * statuses by manifest id (row id and type, read again at each manifest ingest) and where their
 * values are stored (the gateway's batched writes).
 */
export type ExhibitSession = StatusSource & { deps: AppDeps; connection: ExhibitConnection };

/** One SDK socket on this node, from its upgrade to its close. */
export class ExhibitConnection {
  /** Tells this connection apart from the exhibit's connections on other nodes (held flat: see ownString). */
  readonly id = ownString(randomUUID());
  /** When it authenticated (ms), to ignore a takeover from an older connection that arrives late. */
  authenticatedAt = 0;
  /** Set once the credential was checked. */
  session: ExhibitSession | null = null;
  /** The token the credential names, known before it is checked so that a revocation reaches the connection. */
  tokenId: string | null = null;
  /** When anything was last heard from the socket (ms), message or ping. */
  lastSeen: number;
  /** Why the connection ends, kept in the exhibit's history. */
  reason: OfflineReason = 'closed';
  /** Messages are handled one after another (the manifest before the statuses that follow it). */
  queue: Promise<void> = Promise.resolve();
  unsubscribe: (() => void) | null = null;
  authTimer: NodeJS.Timeout | undefined;
  /** Messages written so far; `valueWrites` holds the count at the last message of each value (valueKey). */
  writes = 0;
  private readonly valueWrites = new Map<string, number>();

  readonly remoteAddress: string;
  /** The translation of a socket speaking another protocol (compat/); null for an SDK socket. */
  readonly codec: ExhibitCodec | null;

  constructor(
    readonly socket: WebSocket,
    from: { remoteAddress: string; now: number; codec?: ExhibitCodec | null },
  ) {
    this.remoteAddress = from.remoteAddress;
    this.lastSeen = from.now;
    this.codec = from.codec ?? null;
  }

  get exhibitId(): string | null {
    return this.session?.exhibitId ?? null;
  }

  /** Writes a message if the socket is open; answers whether it was written. */
  write(message: GatewayMessage): boolean {
    if (this.socket.readyState !== this.socket.OPEN) return false;
    this.writes += 1;
    const key = valueKey(message);
    if (key) this.valueWrites.set(key, this.writes);
    if (!this.codec) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    for (const frame of this.codec.encode(message)) this.socket.send(frame);
    return true;
  }

  /**
   * Writes a value read from the database when `mark` (this.writes) was current, unless a message
   * of the same value (or a whole sync) was written since: that one is as new or newer.
   */
  writeUnlessNewer(message: GatewayMessage, mark: number): boolean {
    const key = valueKey(message);
    const newer = (at: number | undefined) => at !== undefined && at > mark;
    if (key && (newer(this.valueWrites.get(key)) || newer(this.valueWrites.get(SYNC_KEY)))) return false;
    return this.write(message);
  }

  /** Closes the socket (if it is not closed already) and remembers why. */
  drop(close: ExhibitClose): void {
    this.reason = close.reason;
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) {
      this.socket.close(close.code, close.text);
    }
  }
}

const SYNC_KEY = '*';

/** Which value a message carries (a setting, a list, the op mode; a sync carries all), or null. */
function valueKey(message: GatewayMessage): string | null {
  switch (message.type) {
    case 'setting.changed':
      return `setting:${message.settingId}`;
    case 'settingList.changed':
      return `list:${message.listId}`;
    case 'opMode.changed':
      return 'opMode';
    case 'exhibit.synced':
      return SYNC_KEY;
    default:
      return null;
  }
}
