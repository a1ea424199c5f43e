import net from 'node:net';
import { Aedes, type Client } from 'aedes';
import type { Logger } from 'pino';
import { hardwareTopic, hardwareTopicPrefix, Id, isBoardChannelTopic } from '@plinth/shared';
import { ownString } from '../lib/own-string.js';
import { listenOrExplain } from '../lib/port-conflict.js';

/** Who a board connection is: its hardware id (MQTT username) and the token it used. */
export type BoardSession = { hardwareId: string; tokenId: string };

/** A session as the broker holds it: with what the board's topics start with, made once at connect (not per publish). */
type HeldSession = BoardSession & { topicPrefix: string };

export type BoardAuthenticator = (hardwareId: string, token: string) => Promise<{ tokenId: string } | null>;

export type EmbeddedBroker = {
  broker: Aedes;
  port: number;
  /** Closes the live connections of a board (all of them, or those that used one token). */
  dropSessions: (hardwareId: string, tokenId?: string) => number;
  /** Hardware ids with at least one live connection. */
  isConnected: (hardwareId: string) => boolean;
  /** Whether boards can connect now (the listener is open and the broker not closed). */
  isListening: () => boolean;
  close: () => Promise<void>;
};

export type EmbeddedBrokerOptions = {
  port: number;
  host: string;
  logger: Logger;
  authenticateBoard: BoardAuthenticator;
  onBoardConnected?: (session: BoardSession) => void;
  onBoardDisconnected?: (session: BoardSession) => void;
};

/** How long a revocation is remembered against checks that began before it (far above any check's time). */
const REVOCATION_MEMORY_MS = 60_000;

/** Returns the refusal aedes expects from authenticate (CONNACK return code). */
function refusal(code: 4 | 5): Error & { returnCode: number } {
  return Object.assign(new Error(code === 4 ? 'Bad username or password' : 'Not authorized'), { returnCode: code });
}

/**
 * The embedded MQTT broker (aedes) boards connect to when no MQTT_URL is set. A board connects
 * with username = hardware id and password = one of its hardware tokens, and may publish only its
 * own board channels and subscribe only to its own command topic. The server itself never
 * connects over the network: it reaches the broker in process (see mqtt-link.ts).
 */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const broker = await Aedes.createBroker();
  const sessions = new BoardSessions(options);
  guardBoards(broker, sessions, options);
  const server = net.createServer(broker.handle as (socket: net.Socket) => void);
  try {
    await listenOrExplain(server, { use: 'mqtt', port: options.port, host: options.host });
  } catch (error) {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    throw error;
  }
  const port = (server.address() as net.AddressInfo).port;
  options.logger.info(`MQTT broker listening on ${options.host}:${port}`);
  return {
    broker,
    port,
    dropSessions: (hardwareId, tokenId) => sessions.drop(hardwareId, tokenId),
    isConnected: (hardwareId) => sessions.isConnected(hardwareId),
    isListening: () => server.listening && !broker.closed,
    close: async () => {
      sessions.closeAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}

/**
 * The broker's hooks: authentication against the hardware's tokens, and the topic rules (a board
 * publishes only its own channels, subscribes only to its own `cmd`, receives only its own topics).
 */
function guardBoards(broker: Aedes, sessions: BoardSessions, options: EmbeddedBrokerOptions): void {
  // eslint-disable-next-line max-params -- aedes calls this hook with four arguments
  broker.authenticate = (client, username, password, done) => {
    if (!username || !password || !Id.safeParse(username).success) {
      done(refusal(4) as never, false);
      return;
    }
    const hardwareId = username.toLowerCase();
    options
      .authenticateBoard(hardwareId, password.toString('utf8'))
      .then((found) => {
        if (sessions.admit(client, found ? { hardwareId, tokenId: found.tokenId } : null)) done(null, true);
        else done(refusal(4) as never, false);
      })
      .catch((error: unknown) => {
        options.logger.error({ err: error }, 'board authentication failed');
        done(refusal(5) as never, false);
      });
  };
  broker.authorizePublish = (client, packet, callback) => {
    const session = client ? sessions.of(client) : undefined;
    if (!session) return callback(new Error('Not authorized'));
    callback(isBoardChannelTopic(packet.topic, session.topicPrefix) ? null : new Error('Not authorized'));
  };
  broker.authorizeSubscribe = (client, subscription, callback) => {
    const session = sessions.of(client);
    const allowed = session && subscription.topic === hardwareTopic(session.hardwareId, 'cmd');
    // A null subscription answers SUBACK 0x80 (refused) and keeps the connection.
    callback(null, allowed ? subscription : null);
  };
  // Boards never receive what is not theirs, even through a retained or wildcard path.
  broker.authorizeForward = (client, packet) => {
    const session = sessions.live.get(client);
    if (!session) return null;
    return packet.topic.startsWith(session.topicPrefix) ? packet : null;
  };
  broker.on('clientReady', (client) => sessions.ready(client));
  broker.on('clientDisconnect', (client) => sessions.disconnected(client));
  broker.on('clientError', (client) => sessions.failed(client));
}

/**
 * The board sessions of the embedded broker, from accepted credentials to disconnect, and the
 * revocations that must close them.
 */
class BoardSessions {
  /** Sessions that are ready, by client. */
  readonly live = new Map<Client, HeldSession>();
  /**
   * Ready sessions by board: whether a board is still connected is asked at every disconnect, and
   * a scan of every session then made a venue-wide drop quadratic (10,000 boards gone took about 9 s
   * of the main thread in a profile).
   */
  private readonly liveByBoard = new Map<string, number>();
  /** Clients whose credentials were accepted and whose session is not ready yet. */
  private readonly pending = new Map<Client, HeldSession>();
  /**
   * Tokens (and boards) revoked lately, with when. A check of a token that began before its
   * revocation can still answer "valid" after it: the answer is refused when it comes back, and a
   * client that got through meanwhile is closed when its session becomes ready.
   */
  private readonly revoked = new Map<string, number>();

  constructor(private readonly options: EmbeddedBrokerOptions) {}

  /** A client's session, ready or not. */
  of(client: Client): HeldSession | undefined {
    return this.live.get(client) ?? this.pending.get(client);
  }

  /** Credentials were checked: answers whether the client may connect (they were valid and not revoked since). */
  admit(client: Client, session: BoardSession | null): boolean {
    if (!session || this.isRevoked(session)) return false;
    this.pending.set(client, { ...session, topicPrefix: ownString(hardwareTopicPrefix(session.hardwareId)) });
    return true;
  }

  /** The client's session is ready: it counts as connected, unless its token was revoked meanwhile. */
  ready(client: Client): void {
    const session = this.pending.get(client);
    if (!session) return;
    this.pending.delete(client);
    if (this.isRevoked(session)) {
      client.close();
      return;
    }
    this.live.set(client, session);
    this.liveByBoard.set(session.hardwareId, (this.liveByBoard.get(session.hardwareId) ?? 0) + 1);
    this.options.onBoardConnected?.(session);
  }

  /** The client went away: a ready session is reported disconnected. */
  disconnected(client: Client): void {
    this.pending.delete(client);
    const session = this.live.get(client);
    if (!session) return;
    this.forgetLive(client, session);
    this.options.onBoardDisconnected?.(session);
  }

  /** A client refused or broken before it was ready never disconnects as a session. */
  failed(client: Client): void {
    if (!this.live.has(client)) this.pending.delete(client);
  }

  /** Revokes a token (or a whole board) and closes its connections; answers how many ready ones were closed. */
  drop(hardwareId: string, tokenId?: string): number {
    this.remember(tokenId ?? hardwareId);
    const matches = (session: BoardSession) => session.hardwareId === hardwareId && (!tokenId || session.tokenId === tokenId);
    for (const [client, session] of this.pending) {
      if (!matches(session)) continue;
      this.pending.delete(client);
      client.close();
    }
    let dropped = 0;
    for (const [client, session] of this.live) {
      if (!matches(session)) continue;
      this.forgetLive(client, session);
      client.close();
      this.options.onBoardDisconnected?.(session);
      dropped += 1;
    }
    return dropped;
  }

  /** Whether the board has at least one ready connection. */
  isConnected(hardwareId: string): boolean {
    return this.liveByBoard.has(hardwareId);
  }

  private forgetLive(client: Client, session: BoardSession): void {
    this.live.delete(client);
    const left = (this.liveByBoard.get(session.hardwareId) ?? 1) - 1;
    if (left > 0) this.liveByBoard.set(session.hardwareId, left);
    else this.liveByBoard.delete(session.hardwareId);
  }

  /** Closes every ready connection (the broker is stopping). */
  closeAll(): void {
    for (const client of this.live.keys()) client.close();
  }

  private isRevoked(session: BoardSession): boolean {
    return this.revoked.has(session.tokenId) || this.revoked.has(session.hardwareId);
  }

  private remember(key: string): void {
    const now = Date.now();
    for (const [old, at] of this.revoked) if (now - at > REVOCATION_MEMORY_MS) this.revoked.delete(old);
    this.revoked.set(key, now);
  }
}
