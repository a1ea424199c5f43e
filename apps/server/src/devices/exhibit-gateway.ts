import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { and, eq } from 'drizzle-orm';
import {
  EXHIBIT_AUTH_TIMEOUT_MS,
  EXHIBIT_CLOSE,
  EXHIBIT_HEARTBEAT_MS,
  EXHIBIT_OFFLINE_AFTER_MS,
  describeUnsafeText,
  findUnsafeText,
  parseManifest,
  SdkMessageSchema,
  topicFor,
  type GatewayMessage,
  type SdkMessage,
  type UnsafeText,
} from '@plinth/shared';
import { exhibitConnections, exhibits } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../lib/app-error.js';
import { describeFailure } from '../lib/describe-failure.js';
import { nodeChannel } from '../realtime/channel.js';
import {
  acknowledge,
  pushSync,
  recordEvent,
  recordLogs,
  recordStatus,
  setOpMode,
  type StatusCache,
} from '../modules/exhibit-runtime/exhibit-runtime.service.js';
import { credentialTokenId, verifyExhibitCredential } from '../modules/exhibit-runtime/exhibit-tokens.service.js';
import { ingestManifest } from '../modules/exhibit-runtime/manifest-ingest.service.js';

/** Why an exhibit went offline, kept in its connection history. */
export type OfflineReason = 'closed' | 'timeout' | 'revoked' | 'replaced' | 'deleted' | 'shutdown' | 'restart';

/**
 * The exhibit side: SDK connections on /ws (`?client=exhibit`), their online state and
 * heartbeat, and what the console sends to exhibits (controls, settings, op mode).
 * A connection lives on the node that accepted it; what any node sends to an exhibit goes
 * through the realtime hub (`exhibit-device:{id}`) to the node that holds the connection, so
 * several nodes behave as one. Whether an exhibit is online is `exhibits.online` in the database.
 */
export type ExhibitGateway = {
  /** True for an upgrade request meant for the gateway (`/ws?client=exhibit`). */
  isExhibitSocket: (request: FastifyRequest) => boolean;
  /** Takes over an SDK socket: auth message, then manifest, statuses, acks, logs. */
  accept: (socket: WebSocket, request: FastifyRequest) => void;
  /**
   * Sends to the exhibit wherever its connection is: written directly when this node holds it,
   * else handed to the node that does; dropped when no node does (callers check
   * `exhibits.online` first when the sender must know).
   */
  send: (exhibitId: string, message: GatewayMessage) => void;
  /** Closes the connections of the exhibit authenticated with a token (it was revoked), on any node. */
  disconnectToken: (exhibitId: string, tokenId: string) => void;
  /** Pings live connections and drops those not heard from within the offline window. */
  sweep: () => void;
  /** Number of authenticated connections (for the benchmark and health). */
  connectionCount: () => number;
  close: () => Promise<void>;
};

/**
 * What nodes tell each other about one exhibit's connection, on the hub topic
 * `exhibit-device:{id}`; no console socket can subscribe to it (they get `exhibit:` and
 * `hardware:` topics only), and it is not a RealtimeEvent.
 */
type DeviceMessage =
  /** Write this to the exhibit (sent by a node that does not hold the connection). */
  | { type: 'device.send'; message: GatewayMessage }
  /** A token was revoked: close the connections opened with it. */
  | { type: 'device.revoke'; tokenId: string }
  /** A connection of the exhibit authenticated at `at` (ms): older ones, on any node, close as replaced. */
  | { type: 'device.takeover'; connectionId: string; at: number };

/** The hub topic prefix on which the node holding an exhibit's connection listens. */
const DEVICE_TOPIC_PREFIX = 'exhibit-device';

type Connection = {
  /** Tells this connection apart from the exhibit's connections on other nodes. */
  id: string;
  /** When it authenticated (ms), to ignore a takeover from an older connection that arrives late. */
  authenticatedAt: number;
  socket: WebSocket;
  remoteAddress: string;
  exhibitId: string | null;
  tokenId: string | null;
  lastSeen: number;
  reason: OfflineReason;
  /** Messages are handled one after another (the manifest before the statuses that follow it). */
  queue: Promise<void>;
  unsubscribe: (() => void) | null;
  authTimer: NodeJS.Timeout | undefined;
  /** The exhibit's statuses by manifest id, read once; a manifest ingest clears it. */
  statuses: StatusCache;
};

export function createExhibitGateway(deps: AppDeps): ExhibitGateway {
  const current = new Map<string, Connection>();
  const devices = nodeChannel<DeviceMessage>(deps.hub, DEVICE_TOPIC_PREFIX);
  /** The `lastOnlineChange` this node wrote when it last marked each exhibit online. */
  const onlineStamps = new Map<string, Date>();
  const all = new Set<Connection>();
  const pending = new Set<Promise<unknown>>();
  let closing = false;
  const now = () => deps.clock.now().getTime();

  const track = <T>(promise: Promise<T>): Promise<T> => {
    pending.add(promise);
    void promise.finally(() => pending.delete(promise)).catch(() => undefined);
    return promise;
  };

  // With one node, nothing can be connected at start: exhibits left online by a crash go offline.
  const ready: Promise<void> = deps.config.REDIS_URL ? Promise.resolve() : track(resetStaleOnline()).catch((error: unknown) => {
    deps.logger.warn({ err: error }, 'could not reset the online state of exhibits');
  });

  async function resetStaleOnline(): Promise<void> {
    const stale = await deps.db
      .update(exhibits)
      .set({ online: false, lastOnlineChange: deps.clock.now() })
      .where(eq(exhibits.online, true))
      .returning({ id: exhibits.id });
    if (stale.length) {
      await deps.db.insert(exhibitConnections).values(stale.map((e) => ({ exhibitId: e.id, online: false, reason: 'restart' })));
    }
  }

  /**
   * Online/offline writes of one exhibit run in the order they were asked for: a socket that
   * closes while its "online" write is still running must not end up online after its "offline".
   */
  const onlineWrites = new Map<string, Promise<void>>();
  function queueOnline(connection: Connection, online: boolean): Promise<void> {
    const exhibitId = connection.exhibitId!;
    const previous = onlineWrites.get(exhibitId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => setOnline(connection, online));
    onlineWrites.set(exhibitId, next);
    void next.finally(() => {
      if (onlineWrites.get(exhibitId) === next) onlineWrites.delete(exhibitId);
    }).catch(() => undefined);
    return next;
  }

  async function setOnline(connection: Connection, online: boolean): Promise<void> {
    const exhibitId = connection.exhibitId!;
    const at = deps.clock.now();
    // Going offline applies only if no node marked the exhibit online since this node did: the
    // exhibit may already have reconnected through another node.
    const stamp = online ? undefined : onlineStamps.get(exhibitId);
    if (!online) onlineStamps.delete(exhibitId);
    const [row] = await deps.db
      .update(exhibits)
      .set({ online, lastOnlineChange: at })
      .where(stamp ? and(eq(exhibits.id, exhibitId), eq(exhibits.lastOnlineChange, stamp)) : eq(exhibits.id, exhibitId))
      .returning({ opMode: exhibits.opMode });
    if (!row) return; // deleted meanwhile, or online again through another node
    if (online) onlineStamps.set(exhibitId, at);
    await deps.db.insert(exhibitConnections).values({
      exhibitId,
      online,
      tokenId: online ? connection.tokenId : null,
      remoteAddress: connection.remoteAddress,
      reason: online ? null : connection.reason,
      at,
    });
    const topic = topicFor('exhibit', exhibitId);
    deps.hub.publish(topic, { type: 'exhibit.online', exhibitId, online, lastOnlineChange: at.toISOString() });
    deps.hub.publish(topic, { type: 'exhibit.opMode', id: exhibitId, mode: online ? row.opMode : 'Off' });
  }

  function write(connection: Connection, message: GatewayMessage): boolean {
    if (connection.socket.readyState !== connection.socket.OPEN) return false;
    connection.socket.send(JSON.stringify(message));
    return true;
  }

  function drop(connection: Connection, code: number, reason: OfflineReason, text: string): void {
    connection.reason = reason;
    if (connection.socket.readyState === connection.socket.OPEN || connection.socket.readyState === connection.socket.CONNECTING) {
      connection.socket.close(code, text);
    }
  }

  /** The connection ended: if it was the exhibit's current one, the exhibit is offline. */
  function ended(connection: Connection): void {
    clearTimeout(connection.authTimer);
    all.delete(connection);
    connection.unsubscribe?.();
    const id = connection.exhibitId;
    if (!id || current.get(id) !== connection) return;
    current.delete(id);
    // Replaced by a newer connection (on another node): that one holds the online state, and an
    // offline write from here could land after its online write on a busy database.
    if (connection.reason === 'replaced') {
      onlineStamps.delete(id);
      return;
    }
    void track(queueOnline(connection, false)).catch((error: unknown) => deps.logger.warn({ err: error, exhibitId: id }, 'could not mark the exhibit offline'));
  }

  /**
   * Authenticates a connection. A token revoked at any moment must close it, so the connection
   * becomes reachable by revocations (its token id known locally, the exhibit's device topic
   * subscribed on every node) before the credential is checked against the database: a revocation
   * deletes the token first and announces it after, so either the check sees it gone or the
   * announcement reaches the connection.
   */
  async function authenticate(connection: Connection, exhibitId: string, credential: string): Promise<void> {
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(exhibitId);
    const claimedTokenId = isUuid ? credentialTokenId(credential) : null;
    const refuse = () => {
      write(connection, { type: 'error', message: 'The credential is not valid or has expired.' });
      drop(connection, EXHIBIT_CLOSE.unauthorized, 'closed', 'unauthorized');
    };
    if (!claimedTokenId) return refuse();
    connection.tokenId = claimedTokenId;
    const offDevice = devices.subscribe(exhibitId, (message) => {
      if (message.type === 'device.send') {
        if (current.get(exhibitId) === connection) write(connection, message.message);
      } else if (message.type === 'device.revoke') {
        if (connection.tokenId === message.tokenId) drop(connection, EXHIBIT_CLOSE.unauthorized, 'revoked', 'token revoked');
      } else if (connection.authenticatedAt > 0 && message.connectionId !== connection.id && message.at >= connection.authenticatedAt) {
        drop(connection, EXHIBIT_CLOSE.replaced, 'replaced', 'another connection of this exhibit took over');
      }
    });
    connection.unsubscribe = offDevice;
    await offDevice.ready;
    const tokenId = await verifyExhibitCredential(deps, exhibitId, credential);
    if (tokenId !== claimedTokenId) return refuse();
    await ready;
    if (connection.socket.readyState !== connection.socket.OPEN || closing) return;
    clearTimeout(connection.authTimer);
    connection.exhibitId = exhibitId;
    connection.authenticatedAt = now();
    const previous = current.get(exhibitId);
    current.set(exhibitId, connection);
    if (previous) drop(previous, EXHIBIT_CLOSE.replaced, 'replaced', 'another connection of this exhibit took over');
    const offDeleted = deps.hub.subscribe(topicFor('exhibit', exhibitId), (event) => {
      if (event.type === 'exhibit.deleted') drop(connection, EXHIBIT_CLOSE.deleted, 'deleted', 'the exhibit was deleted');
    });
    connection.unsubscribe = () => {
      offDeleted();
      offDevice();
    };
    devices.publish(exhibitId, { type: 'device.takeover', connectionId: connection.id, at: connection.authenticatedAt });
    // Queued now, before any await, so that an "offline" from a quick close comes after it.
    const markedOnline = previous ? Promise.resolve() : queueOnline(connection, true);
    const [row] = await deps.db.select({ name: exhibits.name }).from(exhibits).where(eq(exhibits.id, exhibitId));
    await markedOnline;
    write(connection, { type: 'auth.ok', exhibitId, name: row?.name ?? '' });
  }

  async function handle(connection: Connection, raw: string): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      write(connection, { type: 'error', message: 'Messages must be JSON.' });
      return;
    }
    const parsed = SdkMessageSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      write(connection, { type: 'error', message: `Invalid message: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim() });
      return;
    }
    const message = parsed.data;
    const unsafe = findUnsafeText(json);
    if (unsafe) {
      write(connection, unsafeTextAnswer(message, unsafe));
      return;
    }
    if (message.type === 'ping') {
      write(connection, { type: 'pong' });
      return;
    }
    if (message.type === 'auth') {
      if (!connection.exhibitId) await authenticate(connection, message.exhibitId, message.token);
      return;
    }
    const exhibitId = connection.exhibitId;
    if (!exhibitId || current.get(exhibitId) !== connection) {
      write(connection, { type: 'error', message: 'Authenticate first.' });
      return;
    }
    switch (message.type) {
      case 'manifest': {
        const manifest = parseManifest(message.manifest);
        if (!manifest.success) {
          write(connection, { type: 'manifest.error', requestId: message.requestId, status: 400, message: manifest.message });
          return;
        }
        connection.statuses.clear();
        try {
          const changed = await ingestManifest(deps, exhibitId, manifest.manifest);
          if (changed) deps.hub.publish(topicFor('exhibit', exhibitId), { type: 'exhibit.manifest', exhibitId });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          write(connection, { type: 'manifest.error', requestId: message.requestId, status: error.status, message: error.message });
          // A locked exhibit keeps its stored structure, and values still flow to it.
          if (error.code === 'NotAcceptable') await pushSync(deps, exhibitId);
          return;
        }
        write(connection, { type: 'manifest.ok', requestId: message.requestId });
        await pushSync(deps, exhibitId);
        return;
      }
      case 'status': {
        const problem = await recordStatus(deps, exhibitId, message.id, message.value, connection.statuses);
        if (problem) write(connection, { type: 'error', message: problem });
        return;
      }
      case 'opMode':
        await setOpMode(deps, exhibitId, message.value, 'exhibit');
        return;
      case 'ack':
        await acknowledge(deps, exhibitId, message.settings, message.listItems);
        return;
      case 'log':
        await recordLogs(deps, exhibitId, message.entries);
        return;
      case 'event':
        await recordEvent(deps, exhibitId, message.name, message.data, message.timestamp);
        return;
    }
  }

  const sweep = () => {
    const limit = now() - EXHIBIT_OFFLINE_AFTER_MS;
    for (const connection of all) {
      if (connection.lastSeen < limit) {
        connection.reason = 'timeout';
        connection.socket.terminate();
      } else if (connection.socket.readyState === connection.socket.OPEN) {
        connection.socket.ping();
      }
    }
  };
  const heartbeat = setInterval(sweep, EXHIBIT_HEARTBEAT_MS);
  heartbeat.unref();

  return {
    isExhibitSocket: (request) => (request.query as Record<string, unknown> | undefined)?.client === 'exhibit',
    accept(socket, request) {
      if (closing) {
        socket.close(1001, 'shutting down');
        return;
      }
      const connection: Connection = {
        id: randomUUID(),
        authenticatedAt: 0,
        socket,
        remoteAddress: request.ip,
        exhibitId: null,
        tokenId: null,
        lastSeen: now(),
        reason: 'closed',
        queue: Promise.resolve(),
        statuses: new Map(),
        unsubscribe: null,
        authTimer: undefined,
      };
      all.add(connection);
      connection.authTimer = setTimeout(() => {
        if (!connection.exhibitId) drop(connection, EXHIBIT_CLOSE.unauthorized, 'closed', 'no auth message');
      }, EXHIBIT_AUTH_TIMEOUT_MS);
      connection.authTimer.unref();
      socket.on('message', (raw) => {
        connection.lastSeen = now();
        const text = raw.toString();
        connection.queue = track(
          connection.queue.then(() => handle(connection, text)).catch((error: unknown) => {
            deps.logger.warn({ failure: describeFailure(error), exhibitId: connection.exhibitId }, 'exhibit message failed');
            write(connection, { type: 'error', message: 'The message could not be handled.' });
          }),
        );
      });
      socket.on('pong', () => {
        connection.lastSeen = now();
      });
      socket.on('ping', () => {
        connection.lastSeen = now();
      });
      socket.on('close', () => ended(connection));
      socket.on('error', () => ended(connection));
    },
    send(exhibitId, message) {
      const connection = current.get(exhibitId);
      if (connection && write(connection, message)) return;
      devices.publish(exhibitId, { type: 'device.send', message });
    },
    disconnectToken(exhibitId, tokenId) {
      for (const connection of all) {
        if (connection.tokenId === tokenId) drop(connection, EXHIBIT_CLOSE.unauthorized, 'revoked', 'token revoked');
      }
      devices.publish(exhibitId, { type: 'device.revoke', tokenId });
    },
    sweep,
    connectionCount: () => current.size,
    async close() {
      closing = true;
      clearInterval(heartbeat);
      for (const connection of [...all]) {
        connection.reason = 'shutdown';
        ended(connection);
        connection.socket.terminate();
      }
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
}

/** The online history of an exhibit, oldest first (for tests and later screens). */
export async function listConnectionHistory(deps: AppDeps, exhibitId: string, limit = 50) {
  return deps.db
    .select()
    .from(exhibitConnections)
    .where(eq(exhibitConnections.exhibitId, exhibitId))
    .orderBy(exhibitConnections.at)
    .limit(limit);
}

/**
 * The answer to an SDK message holding text PostgreSQL cannot store: a manifest is refused as a
 * bad manifest (the SDK's ready() rejects with it), anything else with an error message.
 */
function unsafeTextAnswer(message: SdkMessage, unsafe: UnsafeText): GatewayMessage {
  if (message.type === 'manifest' && unsafe.path[0] === 'manifest') {
    const inManifest = { ...unsafe, path: unsafe.path.slice(1) };
    return { type: 'manifest.error', requestId: message.requestId, status: 400, message: `Invalid manifest: ${describeUnsafeText(inManifest, 'manifest')}` };
  }
  return { type: 'error', message: `Invalid message: ${describeUnsafeText(unsafe, 'message')}` };
}

/** A gateway with no connections, for command-line tools that reach services without the server. */
export function createDetachedExhibitGateway(): ExhibitGateway {
  return {
    isExhibitSocket: () => false,
    accept: (socket) => socket.close(1013, 'not accepting exhibit connections'),
    send: () => undefined,
    disconnectToken: () => undefined,
    sweep: () => undefined,
    connectionCount: () => 0,
    close: async () => undefined,
  };
}
