import net from 'node:net';
import { Aedes, type Client } from 'aedes';
import type { Logger } from 'pino';
import { BOARD_CHANNELS, hardwareTopic, MQTT_TOPIC_ROOT } from '@plinth/shared';

/** Who a board connection is: its hardware id (MQTT username) and the token it used. */
export type BoardSession = { hardwareId: string; tokenId: string };

export type BoardAuthenticator = (hardwareId: string, token: string) => Promise<{ tokenId: string } | null>;

export type EmbeddedBroker = {
  broker: Aedes;
  port: number;
  /** Closes the live connections of a board (all of them, or those that used one token). */
  dropSessions: (hardwareId: string, tokenId?: string) => number;
  /** Hardware ids with at least one live connection. */
  isConnected: (hardwareId: string) => boolean;
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  const sessions = new Map<Client, BoardSession>();
  /** Clients whose credentials were accepted and whose session is not ready yet. */
  const pending = new Map<Client, BoardSession>();
  /**
   * Tokens (and boards) revoked lately, with when. A check of a token that began before its
   * revocation can still answer "valid" after it: the answer is refused when it comes back, and a
   * client that got through meanwhile is closed when its session becomes ready.
   */
  const revoked = new Map<string, number>();
  const isRevoked = (session: BoardSession) => revoked.has(session.tokenId) || revoked.has(session.hardwareId);
  const remember = (key: string) => {
    const now = Date.now();
    for (const [old, at] of revoked) if (now - at > REVOCATION_MEMORY_MS) revoked.delete(old);
    revoked.set(key, now);
  };

  broker.authenticate = (client, username, password, done) => {
    if (!username || !password || !UUID.test(username)) {
      done(refusal(4) as never, false);
      return;
    }
    options
      .authenticateBoard(username.toLowerCase(), password.toString('utf8'))
      .then((found) => {
        const session = found ? { hardwareId: username.toLowerCase(), tokenId: found.tokenId } : null;
        if (!session || isRevoked(session)) return done(refusal(4) as never, false);
        pending.set(client, session);
        done(null, true);
      })
      .catch((error: unknown) => {
        options.logger.error({ err: error }, 'board authentication failed');
        done(refusal(5) as never, false);
      });
  };

  broker.authorizePublish = (client, packet, callback) => {
    const session = client ? (sessions.get(client) ?? pending.get(client)) : undefined;
    if (!session) return callback(new Error('Not authorized'));
    const allowed = BOARD_CHANNELS.some((channel) => packet.topic === hardwareTopic(session.hardwareId, channel));
    callback(allowed ? null : new Error('Not authorized'));
  };

  broker.authorizeSubscribe = (client, subscription, callback) => {
    const session = sessions.get(client) ?? pending.get(client);
    const allowed = session && subscription.topic === hardwareTopic(session.hardwareId, 'cmd');
    // A null subscription answers SUBACK 0x80 (refused) and keeps the connection.
    callback(null, allowed ? subscription : null);
  };

  // Boards never receive what is not theirs, even through a retained or wildcard path.
  broker.authorizeForward = (client, packet) => {
    const session = sessions.get(client);
    if (!session) return null;
    return packet.topic.startsWith(`${MQTT_TOPIC_ROOT}/${session.hardwareId}/`) ? packet : null;
  };

  broker.on('clientReady', (client) => {
    const session = pending.get(client);
    if (!session) return;
    pending.delete(client);
    if (isRevoked(session)) {
      client.close();
      return;
    }
    sessions.set(client, session);
    options.onBoardConnected?.(session);
  });
  broker.on('clientDisconnect', (client) => {
    pending.delete(client);
    const session = sessions.get(client);
    if (!session) return;
    sessions.delete(client);
    options.onBoardDisconnected?.(session);
  });
  // A client refused or broken before it was ready never disconnects as a session.
  broker.on('clientError', (client) => {
    if (!sessions.has(client)) pending.delete(client);
  });

  const server = net.createServer(broker.handle as (socket: net.Socket) => void);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  options.logger.info(`MQTT broker listening on ${options.host}:${port}`);
  return {
    broker,
    port,
    dropSessions: (hardwareId, tokenId) => {
      remember(tokenId ?? hardwareId);
      for (const [client, session] of pending) {
        if (session.hardwareId !== hardwareId || (tokenId && session.tokenId !== tokenId)) continue;
        pending.delete(client);
        client.close();
      }
      let dropped = 0;
      for (const [client, session] of sessions) {
        if (session.hardwareId !== hardwareId || (tokenId && session.tokenId !== tokenId)) continue;
        sessions.delete(client);
        client.close();
        options.onBoardDisconnected?.(session);
        dropped += 1;
      }
      return dropped;
    },
    isConnected: (hardwareId) => {
      for (const session of sessions.values()) if (session.hardwareId === hardwareId) return true;
      return false;
    },
    close: async () => {
      for (const client of sessions.keys()) client.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}
