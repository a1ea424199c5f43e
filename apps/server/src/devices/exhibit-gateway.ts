import type { WebSocket } from 'ws';
import { EXHIBIT_AUTH_TIMEOUT_MS, EXHIBIT_HEARTBEAT_MS } from '@plinth/shared';
import type { AppDeps } from '../deps.js';
import { describeFailure } from '../lib/describe-failure.js';
import { countOfflineExhibits } from '../modules/exhibit-runtime/exhibit-presence.repository.js';
import { listUnappliedMessages } from '../modules/exhibit-runtime/exhibit-runtime.service.js';
import { EXHIBIT_CLOSES, ExhibitConnection } from './exhibit-connection.js';
import { ExhibitConnections } from './exhibit-connections.js';
import { handleExhibitMessage } from './exhibit-messages.js';
import type { ExhibitCodec, ExhibitGateway } from './ports.js';

/**
 * The exhibit gateway (ports.ts): SDK sockets on this node, each an ExhibitConnection whose
 * messages exhibit-messages.ts handles in order; the node-to-node device channel reaches
 * connections held by other nodes; exhibit-presence.ts keeps `exhibits.online`.
 */
export function createExhibitGateway(deps: AppDeps): ExhibitGateway {
  const connections = new ExhibitConnections(deps);
  deps.metrics.setSource('exhibitsConnected', () => connections.current.size);
  deps.metrics.setSource('exhibitsOffline', () => countOfflineExhibits(deps.db));
  const sweep = () => connections.sweep();
  const heartbeat = setInterval(sweep, EXHIBIT_HEARTBEAT_MS);
  heartbeat.unref();
  // Saves made on other nodes while the link between the nodes was down never reached the
  // exhibits held here: once it is back, each gets what it has not acknowledged.
  const stopResync = deps.hub.onLiveChange((live) => {
    if (live) void resendUnapplied(connections);
  });

  return {
    isExhibitSocket: (request) => (request.query as Record<string, unknown> | undefined)?.client === 'exhibit',
    accept(socket, request) {
      if (connections.closing) {
        socket.close(1001, 'shutting down');
        return;
      }
      attach(connections, socket, { remoteAddress: request.ip, codec: null });
    },
    acceptTranslated(socket, remoteAddress, codec) {
      if (connections.closing) {
        socket.close(1001, 'shutting down');
        return;
      }
      attach(connections, socket, { remoteAddress, codec });
    },
    send(exhibitId, message) {
      const connection = connections.current.get(exhibitId);
      if (connection && connection.write(message)) return;
      connections.devices.publish(exhibitId, { type: 'device.send', message });
    },
    disconnectToken(exhibitId, tokenId) {
      connections.dropToken(tokenId);
      connections.devices.publish(exhibitId, { type: 'device.revoke', tokenId });
    },
    sweep,
    connectionCount: () => connections.current.size,
    releaseLostNode: (nodeId) => connections.presence.releaseLostNode(nodeId),
    async reassertOnline() {
      const held = [...connections.current];
      await Promise.all(held.map(([exhibitId, connection]) => connections.presence.markOnline(exhibitId, connection)));
      return held.length;
    },
    goodbye: () => connections.goodbye(),
    async close() {
      clearInterval(heartbeat);
      stopResync();
      await connections.close();
    },
  };
}

/** How many held exhibits read their unacknowledged settings at a time after the fan-out returns. */
const RESYNC_CONCURRENCY = 8;

/** Sends every exhibit held here what it has not acknowledged (listUnappliedMessages); logs how many got something. */
async function resendUnapplied(connections: ExhibitConnections): Promise<void> {
  const { deps } = connections;
  const held = [...connections.current.keys()];
  let resent = 0;
  const next = async (): Promise<void> => {
    for (let exhibitId = held.pop(); exhibitId !== undefined; exhibitId = held.pop()) {
      const connection = connections.current.get(exhibitId);
      if (!connection) continue;
      const mark = connection.writes;
      const messages = await listUnappliedMessages(deps, exhibitId).catch((error: unknown) => {
        deps.logger.warn({ failure: describeFailure(error), exhibitId }, 'could not read what an exhibit missed while the realtime link was down');
        return [];
      });
      // A connection that took over meanwhile got a whole sync of its own.
      if (connections.current.get(exhibitId) !== connection) continue;
      // Only the op mode (always sent) means nothing was missed.
      if (messages.length > 1) resent += 1;
      for (const message of messages) connection.writeUnlessNewer(message, mark);
    }
  };
  await Promise.all(Array.from({ length: RESYNC_CONCURRENCY }, next));
  deps.logger.info({ exhibits: connections.current.size, resent }, 'sent held exhibits the settings saved elsewhere while the realtime link was down');
}

/**
 * Takes over a new socket: it must authenticate in time; its messages are handled one after
 * another. A translated socket's frames become SDK messages first (`codec`).
 */
function attach(connections: ExhibitConnections, socket: WebSocket, from: { remoteAddress: string; codec: ExhibitCodec | null }): void {
  const { deps } = connections;
  const { codec } = from;
  const connection = new ExhibitConnection(socket, { remoteAddress: from.remoteAddress, now: connections.now(), codec });
  connections.all.add(connection);
  connection.authTimer = setTimeout(() => {
    if (!connection.exhibitId) connection.drop(EXHIBIT_CLOSES.noAuthMessage);
  }, EXHIBIT_AUTH_TIMEOUT_MS);
  connection.authTimer.unref();
  const heard = () => {
    connection.lastSeen = connections.now();
  };
  socket.on('message', (raw) => {
    heard();
    const text = raw.toString();
    const decoded = codec ? codec.decode(text) : null;
    for (const reply of decoded?.replies ?? []) socket.send(reply);
    const texts = decoded ? decoded.messages.map((message) => JSON.stringify(message)) : [text];
    for (const one of texts) {
      connection.queue = connections.track(
        connection.queue.then(() => handleExhibitMessage(connections, connection, one)).catch((error: unknown) => {
          deps.logger.warn({ failure: describeFailure(error), exhibitId: connection.exhibitId }, 'exhibit message failed');
          connection.write({ type: 'error', message: 'The message could not be handled.' });
        }),
      );
    }
  });
  socket.on('pong', heard);
  socket.on('ping', heard);
  socket.on('close', () => connections.ended(connection));
  socket.on('error', () => connections.ended(connection));
}

/** A gateway with no connections, for command-line tools that reach services without the server. */
export function createDetachedExhibitGateway(): ExhibitGateway {
  return {
    isExhibitSocket: () => false,
    accept: (socket) => socket.close(1013, 'not accepting exhibit connections'),
    acceptTranslated: (socket) => socket.close(1013, 'not accepting exhibit connections'),
    send: () => undefined,
    disconnectToken: () => undefined,
    sweep: () => undefined,
    connectionCount: () => 0,
    releaseLostNode: async () => 0,
    reassertOnline: async () => 0,
    goodbye: () => undefined,
    close: async () => undefined,
  };
}
